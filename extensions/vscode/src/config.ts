// Settings and debug-configuration resolution. Everything here is a pure function of its
// arguments (the VS Code configuration object is passed in), so the unit tests run it with plain
// objects and no editor.
import * as path from 'path';

/// The debugger type contributed in package.json.
export const kDebugType = 'tensorlens';
export const kModes = ['auto', 'eager', 'graph'] as const;
export type Mode = (typeof kModes)[number];

/// The extension's settings, with their defaults filled in.
export interface Settings {
  /// The `tlens` binary as configured (not yet resolved, see resolveTlensPath).
  tlensPath: string;
  languageServerEnabled: boolean;
  /// Per-file analysis budget passed to `tlens lsp`.
  analysisBudgetMs: number;
  inlayHints: boolean;
  /// Analyses assume this many (virtual) GPUs: hovers show placement as on a GPU machine.
  virtualGpus: number;
  trace: 'off' | 'messages' | 'verbose';
}

/// The subset of vscode.WorkspaceConfiguration that readSettings uses.
export interface ConfigurationLike {
  get<T>(section: string): T | undefined;
}

export const kDefaultSettings: Settings = {
  tlensPath: 'tlens',
  languageServerEnabled: true,
  analysisBudgetMs: 10000,
  inlayHints: true,
  virtualGpus: 0,
  trace: 'off',
};

/// Reads the `tensorlens.*` section; a missing or ill-typed value falls back to its default.
export function readSettings(cfg: ConfigurationLike): Settings {
  const str = (k: string, d: string) => {
    const v = cfg.get<unknown>(k);
    return typeof v === 'string' && v.trim() !== '' ? v.trim() : d;
  };
  const bool = (k: string, d: boolean) => {
    const v = cfg.get<unknown>(k);
    return typeof v === 'boolean' ? v : d;
  };
  const budget = cfg.get<unknown>('analysis.budgetMs');
  const gpus = cfg.get<unknown>('virtualGpus');
  const trace = cfg.get<unknown>('trace.server');
  return {
    tlensPath: str('path', kDefaultSettings.tlensPath),
    languageServerEnabled: bool('languageServer.enabled', kDefaultSettings.languageServerEnabled),
    analysisBudgetMs:
      typeof budget === 'number' && Number.isFinite(budget) && budget > 0
        ? Math.round(budget)
        : kDefaultSettings.analysisBudgetMs,
    inlayHints: bool('inlayHints.enabled', kDefaultSettings.inlayHints),
    virtualGpus:
      typeof gpus === 'number' && Number.isInteger(gpus) && gpus >= 0 && gpus <= 64 ? gpus : kDefaultSettings.virtualGpus,
    trace: trace === 'messages' || trace === 'verbose' ? trace : 'off',
  };
}

/// What `initialize` carries in initializationOptions; later changes arrive through
/// workspace/didChangeConfiguration with the whole `tensorlens` section.
export interface InitializationOptions {
  analysisBudgetMs: number;
  inlayHints: boolean;
  virtualGpus: number;
}

export function initializationOptions(s: Settings): InitializationOptions {
  return { analysisBudgetMs: s.analysisBudgetMs, inlayHints: s.inlayHints, virtualGpus: s.virtualGpus };
}

/// Turns the `tensorlens.path` setting into what child_process should run. A bare command name
/// ("tlens") stays bare so the OS searches PATH; `${workspaceFolder}` and a leading `~` are
/// expanded; any other relative path is taken from the first workspace folder.
export function resolveTlensPath(setting: string, workspaceFolder: string | undefined, home: string): string {
  let p = setting.trim() || kDefaultSettings.tlensPath;
  if (p.includes('${workspaceFolder}')) {
    p = p.split('${workspaceFolder}').join(workspaceFolder ?? '.');
  }
  if (p === '~' || p.startsWith('~/')) p = path.join(home, p.slice(1));
  const bare = !p.includes('/') && !p.includes('\\');
  if (bare || path.isAbsolute(p)) return bare ? p : path.normalize(p);
  return path.resolve(workspaceFolder ?? process.cwd(), p);
}

/// The subset of vscode.DebugConfiguration this file reads and writes.
export interface DebugConfig {
  type: string;
  name: string;
  request: string;
  [key: string]: unknown;
}

/// What the active editor holds, when resolving a configuration without launch.json.
export interface ActiveFile {
  path: string;
  languageId: string;
}

export type Resolution = { config: DebugConfig } | { error: string };

/// First stage (before `${...}` variables are substituted): fills in a configuration for the
/// current file when there is no launch.json, defaults for every optional launch argument, and
/// rejects what cannot work, with a message that says how to fix it.
export function resolveDebugConfig(
  input: Partial<DebugConfig> | undefined,
  active: ActiveFile | undefined,
  hasWorkspaceFolder: boolean,
): Resolution {
  let c: Partial<DebugConfig> = { ...(input ?? {}) };
  const empty = !c.type && !c.request && !c.name;
  if (empty) {
    if (!active || active.languageId !== 'python') {
      return { error: 'tensorlens: open a Python file to debug, or add a "tensorlens" configuration to launch.json.' };
    }
    c = { type: kDebugType, request: 'launch', name: 'tensorlens: current file', program: '${file}' };
  }
  c.type = c.type ?? kDebugType;
  c.request = c.request ?? 'launch';
  c.name = c.name ?? `tensorlens: ${c.request}`;
  if (c.request === 'attach') return resolveAttach(c as DebugConfig);
  if (c.request !== 'launch') {
    return { error: `tensorlens: "request" must be "launch" or "attach", not "${String(c.request)}".` };
  }
  if (typeof c.program !== 'string' || c.program.trim() === '') {
    return {
      error:
        `tensorlens: the configuration "${c.name}" has no "program". ` +
        'Set it to the Python file to debug, e.g. "program": "${file}".',
    };
  }
  if (c.args === undefined) c.args = [];
  if (!Array.isArray(c.args) || !c.args.every((a) => typeof a === 'string')) {
    return { error: 'tensorlens: "args" must be an array of strings.' };
  }
  if (c.env !== undefined && (typeof c.env !== 'object' || c.env === null || Array.isArray(c.env))) {
    return { error: 'tensorlens: "env" must be an object of variable names to values.' };
  }
  if (c.mode === undefined) c.mode = 'auto';
  if (!kModes.includes(c.mode as Mode)) {
    return { error: `tensorlens: "mode" must be one of ${kModes.join(', ')}, not "${String(c.mode)}".` };
  }
  if (c.device !== undefined && c.device !== 'cpu' && c.device !== 'gpu') {
    return { error: 'tensorlens: "device" must be "cpu" or "gpu".' };
  }
  const gpus = (c as { virtualGpus?: unknown }).virtualGpus;
  if (gpus !== undefined && !(typeof gpus === 'number' && Number.isInteger(gpus) && gpus >= 0 && gpus <= 64)) {
    return { error: 'tensorlens: "virtualGpus" must be a whole number from 0 to 64.' };
  }
  if (c.checkNumerics === undefined) c.checkNumerics = true;
  if (c.stopOnEntry === undefined) c.stopOnEntry = false;
  if (typeof c.checkNumerics !== 'boolean' || typeof c.stopOnEntry !== 'boolean') {
    return { error: 'tensorlens: "checkNumerics" and "stopOnEntry" must be true or false.' };
  }
  if (c.cwd === undefined && hasWorkspaceFolder) c.cwd = '${workspaceFolder}';
  return { config: c as DebugConfig };
}

function resolveAttach(c: DebugConfig): Resolution {
  if (c.port === undefined) {
    return {
      error:
        `tensorlens: the attach configuration "${c.name}" has no "port". ` +
        'Start `tlens dap --port N` (or `tlens run --listen N prog.py`) and set "port": N.',
    };
  }
  const port = typeof c.port === 'string' ? Number(c.port) : c.port;
  if (typeof port !== 'number' || !Number.isInteger(port) || port < 1 || port > 65535) {
    return { error: `tensorlens: "port" must be a TCP port between 1 and 65535, not ${JSON.stringify(c.port)}.` };
  }
  c.port = port;
  if (c.host === undefined || c.host === '') c.host = '127.0.0.1';
  if (typeof c.host !== 'string') return { error: 'tensorlens: "host" must be a string.' };
  return { config: c };
}

/// Second stage (after substitution): a launch without "cwd" runs in the program's folder, and
/// a relative program is taken from cwd.
export function finishDebugConfig(c: DebugConfig): Resolution {
  if (c.request !== 'launch') return { config: c };
  const program = String(c.program);
  if (program.includes('${')) {
    return { error: `tensorlens: "program" still holds an unresolved variable: ${program}` };
  }
  if (typeof c.cwd !== 'string' || c.cwd === '') {
    c.cwd = path.isAbsolute(program) ? path.dirname(program) : process.cwd();
  }
  if (!path.isAbsolute(program)) c.program = path.resolve(String(c.cwd), program);
  return { config: c };
}
