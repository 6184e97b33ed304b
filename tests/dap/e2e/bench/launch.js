// Launch to first stop, as an editor sees it (issue 19.5): a fresh `tlens dap` process driven by
// DebugClient, from spawning it to the `stopped` event of a breakpoint at `sess.run(init)` in
// examples/mnist_mlp_tf1.py (the graph is built by then), against `tlens run` of the program up
// to that line. With LLDB_DAP=/path/to/lldb-vscode (Debian's lldb-14 has /usr/bin/lldb-vscode-14)
// it also times lldb's adapter in the same run, from spawn to a breakpoint at main() of a small C
// program built with cc -g: the reference the issue names.
// Usage: node bench/launch.js [/path/to/tlens] [runs]   (from tests/dap/e2e)
'use strict';

const { execFileSync } = require('node:child_process');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { DebugClient } = require('@vscode/debugadapter-testsupport');

const root = path.resolve(__dirname, '..', '..', '..', '..');
const tlens = path.resolve(process.argv[2] || path.join(root, 'build', 'tlens'));
const runs = Number(process.argv[3] || 7);
// TLENS_LAUNCH_NO_DATA=1: without `read_data_sets` (its synthetic MNIST is made at the first batch,
// after this stop, so the two should agree), so only the interpreter, the graph build and the debugger count.
let text = fs.readFileSync(path.join(root, 'examples', 'mnist_mlp_tf1.py'), 'utf8');
if (process.env.TLENS_LAUNCH_NO_DATA) text = text.replace(/^mnist = input_data\.read_data_sets\(.*$/m, 'mnist = None');
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tlens-launch-'));
const program = path.join(dir, 'mlp.py');
fs.writeFileSync(program, text);
const prefix = path.join(dir, 'mlp_prefix.py');
fs.writeFileSync(prefix, text.slice(0, text.indexOf('with tf.Session() as sess:')));
const line = text.split('\n').findIndex((l) => l.includes('sess.run(init)')) + 1;

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function launchToStop(checkNumerics) {
  const t0 = process.hrtime.bigint();
  const dc = new DebugClient(tlens, 'dap', 'tensorlens');
  dc.defaultTimeout = 60000;
  await dc.start();
  const stopped = dc.waitForEvent('stopped');
  await dc.initializeRequest({ adapterID: 'tensorlens' });
  await dc.launch({ program, checkNumerics });
  await dc.setBreakpointsRequest({ source: { path: program }, breakpoints: [{ line }] });
  await dc.setExceptionBreakpointsRequest({ filters: checkNumerics ? ['nan_inf'] : [] });
  await dc.configurationDoneRequest();
  await stopped;
  const ms = Number(process.hrtime.bigint() - t0) / 1e6;
  await dc.disconnectRequest({}).catch(() => undefined);
  dc.stopAdapter();
  return ms;
}

/// lldb's adapter: spawn -> stopped at a breakpoint in main() of a small C program.
async function lldbLaunchToStop(adapter, exe, source, bpLine) {
  const t0 = process.hrtime.bigint();
  // DebugClient passes the adapter one argument, which lldb-vscode would take for an option: a
  // one-line shell script execs it without arguments.
  const wrapper = path.join(dir, 'lldb-adapter.sh');
  if (!fs.existsSync(wrapper)) fs.writeFileSync(wrapper, `#!/bin/sh\nexec '${adapter}'\n`, { mode: 0o755 });
  const dc = new DebugClient('/bin/sh', wrapper, 'lldb-vscode');
  dc.defaultTimeout = 60000;
  await dc.start();
  const stopped = dc.waitForEvent('stopped');
  await dc.initializeRequest({ adapterID: 'lldb-vscode' });
  await dc.launchRequest({ program: exe });  // (DebugClient.launch would initialize again: lldb-vscode 14 aborts)
  await dc.setBreakpointsRequest({ source: { path: source }, breakpoints: [{ line: bpLine }] });
  await dc.configurationDoneRequest();
  await stopped;
  const ms = Number(process.hrtime.bigint() - t0) / 1e6;
  await dc.disconnectRequest({ terminateDebuggee: true }).catch(() => undefined);
  dc.stopAdapter();
  return ms;
}

(async () => {
  const plain = [], dbg = [], dbgNoCheck = [], lldb = [];
  const lldbAdapter = process.env.LLDB_DAP;
  let cExe, cSource;
  if (lldbAdapter) {
    cSource = path.join(dir, 'hello.c');
    fs.writeFileSync(cSource, '#include <stdio.h>\nint main(void) {\n  int x = 41;\n  printf("%d\\n", x + 1);\n  return 0;\n}\n');
    cExe = path.join(dir, 'hello');
    execFileSync('cc', ['-g', '-O0', '-o', cExe, cSource]);
  }
  for (let k = 0; k < runs; k++) {
    const t0 = process.hrtime.bigint();
    execFileSync(tlens, ['run', prefix], { stdio: 'ignore' });
    plain.push(Number(process.hrtime.bigint() - t0) / 1e6);
    dbg.push(await launchToStop(true));
    dbgNoCheck.push(await launchToStop(false));
    if (lldbAdapter) lldb.push(await lldbLaunchToStop(lldbAdapter, cExe, cSource, 3));
  }
  const base = median(plain);
  console.log(`launch to first stop, ${path.basename(tlens)}, median of ${runs}: examples/mnist_mlp_tf1.py${process.env.TLENS_LAUNCH_NO_DATA ? ' without read_data_sets' : ''}, breakpoint at line ${line} (sess.run(init))`);
  console.log(`  tlens run of the program up to that line     ${base.toFixed(1)} ms`);
  console.log(`  tlens dap spawn -> stopped (checkNumerics)   ${median(dbg).toFixed(1)} ms  (${(median(dbg) / base).toFixed(2)}x)  min ${Math.min(...dbg).toFixed(1)}`);
  console.log(`  the same, checkNumerics off                  ${median(dbgNoCheck).toFixed(1)} ms  (${(median(dbgNoCheck) / base).toFixed(2)}x)`);
  if (lldbAdapter)
    console.log(`  ${path.basename(lldbAdapter)} spawn -> stopped at main() of a C program   ${median(lldb).toFixed(1)} ms  min ${Math.min(...lldb).toFixed(1)}`);
})().catch((e) => {
  console.error(e);
  process.exit(1);
});
