// The Emacs set-ups in docs/editors/emacs.md, evaluated verbatim in `emacs --batch` with Debian's
// elpa-eglot, elpa-lsp-mode and elpa-dap-mode: eglot connects to a fake `tlens lsp` on PATH and
// shows its diagnostic; lsp-mode registers the client; the dap-mode provider fills in launch and
// attach configurations as the doc says. When a built `tlens` exists, eglot also runs against the
// real `tlens lsp` and dap-mode debugs a TF1 program and the tfdbg NaN example with the real
// `tlens dap`.
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
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

function emacs(dir: string, script: string, env: NodeJS.ProcessEnv = process.env, timeout = 60_000): string {
  const file = path.join(dir, 'test.el');
  writeFileSync(file, script);
  const r = spawnSync('emacs', ['--batch', '-l', file], { env, encoding: 'utf8', timeout });
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
    assert.deepEqual(init?.params.initializationOptions, { analysisBudgetMs: 10000, inlayHints: true });
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

  const realTlens = process.env.TLENS ?? path.resolve(root, '../../build/tlens');
  const noTlens = existsSync(realTlens) ? false : `no tlens binary at ${realTlens} (build it, or set TLENS)`;
  /// A directory whose bin/ holds `tlens` (the real one), for PATH.
  function withRealTlens(prefix: string): { dir: string; env: NodeJS.ProcessEnv } {
    const dir = mkdtempSync(path.join(os.tmpdir(), prefix));
    mkdirSync(path.join(dir, 'bin'));
    symlinkSync(realTlens, path.join(dir, 'bin', 'tlens'));
    return { dir, env: { ...process.env, PATH: `${path.join(dir, 'bin')}:${process.env.PATH}` } };
  }

  it('eglot with the real `tlens lsp`: its shape error and a hover', { skip: noTlens }, () => {
    const { dir, env } = withRealTlens('tlens-emacs-real-');
    const project = path.join(dir, 'project');
    mkdirSync(path.join(project, '.git'), { recursive: true });
    const prog = path.join(project, 'prog.py');
    writeFileSync(
      prog,
      'import tensorflow as tf\n' +
        'x = tf.placeholder(tf.float32, [None, 784])\n' +
        'w = tf.Variable(tf.zeros([10, 5]))\n' +
        'y = tf.matmul(x, w)\n',
    );
    writeFileSync(path.join(dir, 'eglot.el'), block('emacs-eglot'));
    const out = emacs(
      dir,
      `(package-initialize)
(load ${JSON.stringify(path.join(dir, 'eglot.el'))})
(require 'eglot)
(require 'json)
(find-file ${JSON.stringify(prog)})
(unless (eglot-current-server) (apply #'eglot (eglot--guess-contact)))
(let ((deadline (+ (float-time) 30)))
  (while (and (< (float-time) deadline)
              (null (seq-filter (lambda (d) (eq (flymake-diagnostic-type d) 'eglot-error)) (flymake-diagnostics))))
    (accept-process-output nil 0.1)))
(goto-char (point-min)) (forward-line 1)
(let* ((hover (jsonrpc-request (eglot-current-server) :textDocument/hover (eglot--TextDocumentPositionParams)))
       (contents (plist-get hover :contents)))
  (princ (format "RESULT %s\\n"
                 (json-encode (list :diagnostics (vconcat (mapcar (lambda (d) (list :line (line-number-at-pos (flymake-diagnostic-beg d))
                                                                                    :type (symbol-name (flymake-diagnostic-type d))
                                                                                    :text (flymake-diagnostic-text d)))
                                                                  (flymake-diagnostics)))
                                    :hover (if (stringp contents) contents (plist-get contents :value)))))
         #'external-debugging-output))
`,
      env,
      90_000,
    );
    const r = result(out) as { diagnostics: { line: number; type: string; text: string }[]; hover: string };
    const errors = r.diagnostics.filter((d) => d.type === 'eglot-error');
    assert.equal(errors.length, 1, JSON.stringify(r.diagnostics));
    assert.equal(errors[0].line, 4);
    assert.match(errors[0].text, /Dimensions must be equal, but are 784 and 10/);
    assert.match(r.hover, /float32\[.*784\]/, `hover was: ${r.hover}`);
  });

  /// Runs dap-mode's "tensorlens: current file" template from the doc on `program` in batch
  /// Emacs with the real `tlens dap`; `body` is Lisp run once the session stopped, with `s`
  /// (the session), `tid` and `frame` (the top stack frame) bound, that returns a plist.
  function dapSession(program: string, breakpointLine: number | undefined, body: string): Record<string, unknown> {
    const { dir, env } = withRealTlens('tlens-emacs-dap-');
    const prog = path.join(dir, path.basename(program));
    copyFileSync(program, prog);
    writeFileSync(path.join(dir, 'dap.el'), block('emacs-dap-mode'));
    const out = emacs(
      dir,
      `(package-initialize)
(load ${JSON.stringify(path.join(dir, 'dap.el'))})
(require 'json)
(defvar tl-stops 0)
(defvar tl-terminated nil)
(add-hook 'dap-stopped-hook (lambda (_s) (setq tl-stops (1+ tl-stops))))
(add-hook 'dap-terminated-hook (lambda (_s) (setq tl-terminated t)))
(defun tl-wait (pred secs)
  (let ((deadline (+ (float-time) secs)))
    (while (and (< (float-time) deadline) (not (funcall pred)))
      (accept-process-output nil 0.05))
    (funcall pred)))
(defun tl-top-frame (s tid)
  (car (gethash "stackFrames" (dap-request s "stackTrace" :threadId tid))))
(defun tl-eval (s frame expr)
  (gethash "result" (dap-request s "evaluate" :expression expr :frameId (gethash "id" frame) :context "repl")))
(find-file ${JSON.stringify(prog)})
${breakpointLine ? `(goto-char (point-min)) (forward-line ${breakpointLine - 1}) (dap-breakpoint-add)` : ''}
(dap-debug (cdr (assoc "tensorlens: current file" dap-debug-template-configurations)))
(unless (tl-wait (lambda () (> tl-stops 0)) 60) (error "no stop"))
(let* ((s (dap--cur-session))
       (tid (dap--debug-session-thread-id s))
       (frame (tl-top-frame s tid))
       (result (progn ${body})))
  (princ (format "RESULT %s\\n" (json-encode result)) #'external-debugging-output))
`,
      env,
      120_000,
    );
    return result(out) as Record<string, unknown>;
  }

  const fixtures = path.resolve(root, '../../tests/dap/e2e/fixtures');
  it('dap-mode with the real `tlens dap`: a breakpoint on a graph line stops at the node in sess.run', { skip: noTlens }, () => {
    const prog = path.join(fixtures, 'graph_loop.py');
    const matmul = readFileSync(prog, 'utf8').split('\n').findIndex((l) => l.includes('#$ matmul')) + 1;
    const r = dapSession(
      prog,
      matmul,
      `(let ((first (list (gethash "name" frame) (gethash "line" frame))))
         (dap-continue s tid)
         (unless (tl-wait (lambda () (> tl-stops 1)) 30) (error "no second stop"))
         (let* ((tid (dap--debug-session-thread-id s))
                (node (tl-top-frame s tid))
                (value (tl-eval s node "float(tf.reduce_max(y))"))
                (lt (tl-eval s node "lt -t MatMul")))
           (dap-breakpoint-delete-all)
           (dap-continue s tid)
           (tl-wait (lambda () tl-terminated) 30)
           (list :first (vconcat first) :node (vector (gethash "name" node) (gethash "line" node))
                 :value value :lt lt :terminated (if tl-terminated t :json-false)
                 :output (with-current-buffer (dap--debug-session-output-buffer s) (buffer-string)))))`,
    );
    assert.deepEqual(r.first, ['<module>', matmul], 'graph construction');
    assert.deepEqual(r.node, ['y (MatMul)', matmul], 'the node, in the first sess.run');
    assert.equal(r.value, '3.0');
    assert.match(String(r.lt), /^\[0\] y:0 \(MatMul\) float32\[1, 2\]/);
    assert.equal(r.terminated, true);
    assert.match(String(r.output), /done \(1, 2\)/);
  });

  it('dap-mode with the real `tlens dap`: the nan_inf stop of examples/tfdbg_nan.py', { skip: noTlens }, () => {
    const prog = path.resolve(root, '../../examples/tfdbg_nan.py');
    const logLine = readFileSync(prog, 'utf8').split('\n').findIndex((l) => l.includes('tf.log(y)')) + 1;
    const r = dapSession(
      prog,
      undefined,
      `(let ((info (dap-request s "exceptionInfo" :threadId tid)))
         (list :frame (vector (gethash "name" frame) (gethash "line" frame))
               :id (gethash "exceptionId" info) :description (gethash "description" info)))`,
    );
    assert.deepEqual(r.frame, ['cross_entropy/Log (Log)', logLine]);
    assert.equal(r.id, 'nan_inf');
    assert.match(String(r.description), /cross_entropy\/Log produced -inf .* because its input softmax:0 held \d+ exact zeros/);
  });
});
