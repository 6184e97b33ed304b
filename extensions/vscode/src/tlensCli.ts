// Runs `tlens` subcommands (graph, check) as child processes and returns their output.
import { execFile } from 'child_process';

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

/// Runs the binary and resolves with its exit code and output; rejects only when it could not
/// be started, with a message naming the `tensorlens.path` setting.
export function runTlens(tlensPath: string, args: string[], cwd?: string, timeoutMs = 120_000): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    execFile(
      tlensPath,
      args,
      { cwd, timeout: timeoutMs, maxBuffer: 256 * 1024 * 1024, encoding: 'utf8' },
      (err, stdout, stderr) => {
        const e = err as (NodeJS.ErrnoException & { code?: unknown; killed?: boolean }) | null;
        if (e && typeof e.code === 'string') {
          reject(
            new Error(
              e.code === 'ENOENT'
                ? `tlens was not found at "${tlensPath}": set "tensorlens.path" to the tlens binary.`
                : `could not run "${tlensPath}": ${e.message}`,
            ),
          );
          return;
        }
        if (e && e.killed) {
          reject(new Error(`"${tlensPath} ${args.join(' ')}" took longer than ${timeoutMs / 1000} s and was stopped.`));
          return;
        }
        resolve({ code: e && typeof e.code === 'number' ? e.code : 0, stdout, stderr });
      },
    );
  });
}
