// Launch to first stop, as an editor sees it (issue 19.5): a fresh `tlens dap` process driven by
// DebugClient, from spawning it to the `stopped` event of a breakpoint at `sess.run(init)` in
// examples/mnist_mlp_tf1.py (the graph is built by then), against `tlens run` of the program up
// to that line. Usage: node bench/launch.js [/path/to/tlens] [runs]   (from tests/dap/e2e)
'use strict';

const { execFileSync } = require('node:child_process');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { DebugClient } = require('@vscode/debugadapter-testsupport');

const root = path.resolve(__dirname, '..', '..', '..', '..');
const tlens = path.resolve(process.argv[2] || path.join(root, 'build', 'tlens'));
const runs = Number(process.argv[3] || 7);
// TLENS_LAUNCH_NO_DATA=1: without `read_data_sets` (its 220 MB of synthetic MNIST is most of the
// program's own start-up), so only the interpreter, the graph build and the debugger count.
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

(async () => {
  const plain = [], dbg = [], dbgNoCheck = [];
  for (let k = 0; k < runs; k++) {
    const t0 = process.hrtime.bigint();
    execFileSync(tlens, ['run', prefix], { stdio: 'ignore' });
    plain.push(Number(process.hrtime.bigint() - t0) / 1e6);
    dbg.push(await launchToStop(true));
    dbgNoCheck.push(await launchToStop(false));
  }
  const base = median(plain);
  console.log(`launch to first stop, ${path.basename(tlens)}, median of ${runs}: examples/mnist_mlp_tf1.py${process.env.TLENS_LAUNCH_NO_DATA ? ' without read_data_sets' : ''}, breakpoint at line ${line} (sess.run(init))`);
  console.log(`  tlens run of the program up to that line     ${base.toFixed(1)} ms`);
  console.log(`  tlens dap spawn -> stopped (checkNumerics)   ${median(dbg).toFixed(1)} ms  (${(median(dbg) / base).toFixed(2)}x)  min ${Math.min(...dbg).toFixed(1)}`);
  console.log(`  the same, checkNumerics off                  ${median(dbgNoCheck).toFixed(1)} ms  (${(median(dbgNoCheck) / base).toFixed(2)}x)`);
})().catch((e) => {
  console.error(e);
  process.exit(1);
});
