// Attach: `tlens run --listen PORT prog.py args` waits for one debugger; DebugClient connects to
// the port (dc.start(port)), attaches, sets breakpoints, and the program runs under it.
'use strict';

const assert = require('node:assert/strict');
const cp = require('node:child_process');
const { Session, Fixture, tlensPath } = require('../lib/session');

/// Starts `tlens run --listen 0 ...` and resolves with the process and the port it printed.
function listen(program, args) {
  return serve(['run', '--listen', '0', program, ...args], /waiting for a debugger to attach on 127\.0\.0\.1:(\d+)/);
}

/// Starts `tlens ARGS...` and resolves with the process and the port its stderr names.
function serve(tlensArgs, portLine) {
  const proc = cp.spawn(tlensPath(), tlensArgs, { stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  let stdout = '';
  proc.stdout.on('data', (d) => (stdout += d));
  const port = new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`tlens ${tlensArgs[0]} printed no port: ${stderr}`)), 20000);
    proc.stderr.on('data', (d) => {
      stderr += d;
      const m = portLine.exec(stderr);
      if (m) {
        clearTimeout(timer);
        resolve(Number(m[1]));
      }
    });
    proc.on('exit', (code) => reject(new Error(`tlens ${tlensArgs[0]} exited (${code}) before listening: ${stderr}`)));
  });
  const exit = new Promise((resolve) => proc.on('exit', (code, signal) => resolve({ code, signal, stdout: () => stdout, stderr: () => stderr })));
  return { proc, port, exit };
}

describe('attach over TCP', function () {
  const f = Fixture.file('attach_target.py');
  let target;
  let s;
  afterEach(async () => {
    if (s) await s.close();
    if (target && target.proc.exitCode === null) target.proc.kill();
  });

  it('a program started with tlens run --listen runs under the attached client', async () => {
    target = listen(f.path, ['first', 'second']);
    const port = await target.port;
    s = await Session.connect(port);
    const init = await s.request('initialize', { adapterID: 'tensorlens', linesStartAt1: true, columnsStartAt1: true });
    assert.equal(init.body.supportsConfigurationDoneRequest, true);
    await s.request('attach', { port });
    // Breakpoints set before configurationDone hold: the program starts only then.
    await s.configure(f.path, { lineBreakpoints: [{ line: f.line('bp') }] });
    const stop = await s.event('stopped');
    assert.equal(stop.body.reason, 'breakpoint');
    const frames = await s.stackTrace();
    assert.equal(frames[0].line, f.line('bp'));
    assert.equal(frames[0].source.path, f.path);
    assert.equal((await s.evaluate('float(tf.reduce_sum(x))')).result, '3.0');
    assert.equal((await s.evaluate('sys.argv[1:]')).result, "['first', 'second']");
    await s.request('continue', { threadId: 1 });
    assert.equal((await s.event('exited')).body.exitCode, 0);
    // The program's output went to the debugger.
    assert.match(s.output('stdout'), /args \['first', 'second'\]\nsum 9\.0\n/);
    await s.request('disconnect', {});
    const { code } = await target.exit;
    assert.equal(code, 0, 'tlens run --listen ends after its one session');
  });

  it('tlens dap --port serves one launch session after another', async () => {
    target = serve(['dap', '--port', '0'], /tlens dap: listening on 127\.0\.0\.1:(\d+)/);
    const port = await target.port;
    const g = Fixture.file('graph_loop.py');
    for (let session = 0; session < 2; ++session) {
      s = await Session.connect(port);
      await s.start(g.path, { lineBreakpoints: [{ line: g.line('matmul') }] });
      await s.event('stopped');
      await s.request('continue', { threadId: 1 });
      assert.equal((await s.event('stopped')).body.description, 'y (MatMul) on /cpu:0');
      await s.close();
      s = null;
    }
    assert.equal(target.proc.exitCode, null, 'the server keeps serving');
  });

  it('tlens dap (no waiting program) refuses attach and says how to start one', async () => {
    s = await Session.spawn();
    await s.request('initialize', { adapterID: 'tensorlens' });
    await assert.rejects(s.request('attach', { port: 4711 }), /tlens run --listen/);
    assert.equal((await s.request('threads')).body.threads[0].id, 1);
  });
});
