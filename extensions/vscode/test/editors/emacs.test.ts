// The Emacs set-ups in docs/editors/emacs.md, evaluated verbatim in `emacs --batch` with Debian's
// elpa-eglot, elpa-lsp-mode and elpa-dap-mode: eglot connects to a fake `tlens lsp` on PATH and
// shows its diagnostic; lsp-mode registers the client; the dap-mode provider fills in launch and
// attach configurations as the doc says.
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { describe, it } from 'node:test';

const root = path.resolve(__dirname, '../../..');
const doc = readFileSync(path.resolve(root, '../../docs/editors/emacs.md'), 'utf8');

function block(name: string): string {
  const m = new RegExp(`<!-- ${name}-begin -->\\s*\`\`\`elisp\\n([\\s\\S]*?)\`\`\`\\s*<!-- ${name}-end -->`).exec(doc);
  assert.ok(m, `docs/editors/emacs.md has a ${name} block`);
  return m[1];
}

function has(cmd: string, lisp?: string): boolean {
  try {
    execFileSync('sh', ['-c', `command -v ${cmd}`]);
    if (lisp) execFileSync(cmd, ['--batch', '--eval', lisp], { stdio: 'ignore', timeout: 60_000 });
    return true;
  } catch {
    return false;
  }
}

const ready = has('emacs', "(progn (package-initialize) (require 'eglot) (require 'lsp-mode) (require 'dap-mode))");
const skip = ready ? false : 'needs emacs with eglot, lsp-mode and dap-mode (apt-get install emacs-nox elpa-eglot elpa-dap-mode)';

function emacs(dir: string, script: string, env: NodeJS.ProcessEnv = process.env): string {
  const file = path.join(dir, 'test.el');
  writeFileSync(file, script);
  const r = spawnSync('emacs', ['--batch', '-l', file], { env, encoding: 'utf8', timeout: 60_000 });
  assert.equal(r.status, 0, `emacs exited with ${r.status}:\n${r.stderr}`);
  return r.stderr; // `message` writes to stderr in batch mode
}

function result(output: string): unknown {
  const m = /^RESULT (.*)$/m.exec(output);
  assert.ok(m, `no RESULT line in:\n${output}`);
  return JSON.parse(m[1]);
}

describe('docs/editors/emacs.md in Emacs', { skip }, () => {
  it('eglot starts `tlens lsp` with the documented options and shows its diagnostics', () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'tlens-emacs-'));
    const bin = path.join(dir, 'bin');
    const project = path.join(dir, 'project');
    mkdirSync(bin);
    mkdirSync(path.join(project, '.git'), { recursive: true });
    const fake = path.join(bin, 'tlens');
    writeFileSync(fake, `#!/bin/sh\n[ "$1" = lsp ] || exit 2\nexec node ${JSON.stringify(path.join(root, 'test/editors/fakeLsp.js'))}\n`);
    chmodSync(fake, 0o755);
    const prog = path.join(project, 'prog.py');
    writeFileSync(prog, 'c = tf.matmul(a, b)\n');
    writeFileSync(path.join(dir, 'eglot.el'), block('emacs-eglot'));
    const logFile = path.join(dir, 'lsp.log');
    const out = emacs(
      dir,
      `(package-initialize)
(load ${JSON.stringify(path.join(dir, 'eglot.el'))})
(require 'eglot)
(require 'json)
(find-file ${JSON.stringify(prog)})   ; python-mode-hook runs eglot-ensure
(unless (eglot-current-server) (apply #'eglot (eglot--guess-contact)))
(let ((deadline (+ (float-time) 15)))
  (while (and (< (float-time) deadline) (null (flymake-diagnostics)))
    (accept-process-output nil 0.1)))
(princ (format "RESULT %s\\n" (json-encode (vconcat (mapcar #'flymake-diagnostic-text (flymake-diagnostics))))) #'external-debugging-output)
`,
      { ...process.env, PATH: `${bin}:${process.env.PATH}`, FAKE_LSP_LOG: logFile },
    );
    assert.deepEqual(result(out), ['tlens: inner dimensions must be equal, but are 3 and 4']);
    const messages = readFileSync(logFile, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as { method: string; params: any });
    const init = messages.find((m) => m.method === 'initialize');
    assert.deepEqual(init?.params.initializationOptions, { analysisBudgetMs: 500, inlayHints: true });
    assert.equal(init?.params.rootUri, `file://${project}`);
  });

  it('lsp-mode registers tlens as an add-on client for Python', () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'tlens-emacs-'));
    writeFileSync(path.join(dir, 'lsp.el'), block('emacs-lsp-mode'));
    const out = emacs(
      dir,
      `(package-initialize)
(load ${JSON.stringify(path.join(dir, 'lsp.el'))})
(require 'lsp-mode)
(require 'json)
(let ((c (gethash 'tlens lsp-clients)))
  (princ (format "RESULT %s\\n" (json-encode (list :registered (if c t :json-false)
                                                   :addOn (if (and c (lsp--client-add-on? c)) t :json-false)))) #'external-debugging-output))
`,
    );
    assert.deepEqual(result(out), { registered: true, addOn: true });
  });

  it('dap-mode runs `tlens dap` for launch and connects to :host/:debugServer for attach', () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'tlens-emacs-'));
    writeFileSync(path.join(dir, 'dap.el'), block('emacs-dap-mode'));
    const out = emacs(
      dir,
      `(package-initialize)
(load ${JSON.stringify(path.join(dir, 'dap.el'))})
(require 'json)
(let* ((launch (tensorlens-dap--populate (list :type "tensorlens" :request "launch" :program "/w/p.py")))
       (attach (tensorlens-dap--populate (list :type "tensorlens" :request "attach" :port 4711)))
       (templates (mapcar #'car dap-debug-template-configurations)))
  (princ (format "RESULT %s\\n"
                 (json-encode (list :launch launch :attach attach
                                    :provider (if (gethash "tensorlens" dap--debug-providers) t :json-false)
                                    :templates (vconcat (seq-filter (lambda (n) (string-prefix-p "tensorlens" n)) templates)))))
         #'external-debugging-output))
`,
    );
    assert.deepEqual(result(out), {
      launch: { type: 'tensorlens', request: 'launch', program: '/w/p.py', 'dap-server-path': ['tlens', 'dap'], cwd: '/w/' },
      attach: { type: 'tensorlens', request: 'attach', port: 4711, host: '127.0.0.1', debugServer: 4711 },
      provider: true,
      templates: ['tensorlens: attach to 127.0.0.1:4711', 'tensorlens: current file'],
    });
  });
});
