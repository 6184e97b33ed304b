// Tensors in the Variables view: one summary line, and paging through a 10^8-element tensor
// (fixtures/big_tensor.py, 400 MB of float32) with start/count so no answer holds it whole.
'use strict';

const assert = require('node:assert/strict');
const { Session, Fixture, named } = require('../lib/session');

/// The size of a response as it went over the wire, near enough (its JSON).
const wireSize = (r) => Buffer.byteLength(JSON.stringify(r));

async function timed(fn) {
  const t0 = process.hrtime.bigint();
  const r = await fn();
  return { r, ms: Number(process.hrtime.bigint() - t0) / 1e6 };
}

describe('tensor variables', function () {
  const f = Fixture.file('big_tensor.py');
  let s;
  let big;
  before(async () => {
    s = await Session.spawn();
    await s.start(f.path, { lineBreakpoints: [{ line: f.line('stop') }] });
    await s.event('stopped', 60000);
    big = named(await s.scope(0, 'Globals'), 'big');
  });
  after(async () => {
    await s.close();
  });

  it('a tensor is one line of statistics with its rows as indexed children', () => {
    assert.equal(big.type, 'float32[100000, 1000]');
    assert.match(big.value, /^float32\[100000, 1000\] \/cpu:0 min=0 max=1e\+05 mean=5e\+04 std=2\.887e\+04 nan=0 inf=0$/);
    assert.equal(big.indexedVariables, 100000);
    assert.equal(big.evaluateName, 'big');
  });

  it('a page of rows (start/count) answers with exactly those rows, never the tensor', async () => {
    const { r, ms } = await timed(() =>
      s.request('variables', { variablesReference: big.variablesReference, filter: 'indexed', start: 50000, count: 3 }),
    );
    const rows = r.body.variables;
    assert.deepEqual(rows.map((v) => v.name), ['[50000]', '[50001]', '[50002]']);
    assert.match(rows[0].value, /^float32\[1000\] \[50000, 50000, 50000, .*…\]$/);
    assert.equal(rows[0].indexedVariables, 1000);
    // 10^8 elements would be hundreds of megabytes of JSON; three summarised rows are tiny.
    assert.ok(wireSize(r) < 2000, `page response is ${wireSize(r)} bytes`);
    // Generous bound (a summary of 10^8 floats takes ~100 ms here; a page must not be that).
    assert.ok(ms < 1000, `page took ${ms.toFixed(1)} ms`);
    process.stdout.write(`      (page of 3 rows of a 10^8-element tensor: ${ms.toFixed(1)} ms, ${wireSize(r)} bytes)\n`);

    // Into one row: the last two elements.
    const elems = await s.variables(rows[2].variablesReference, { filter: 'indexed', start: 998, count: 2 });
    assert.deepEqual(elems.map((v) => [v.name, v.value]), [['[998]', '50002'], ['[999]', '50002']]);
  });

  it('expanding without a page lists at most a hundred children: ranges, not rows', async () => {
    const { r, ms } = await timed(() => s.request('variables', { variablesReference: big.variablesReference }));
    const kids = r.body.variables;
    assert.ok(kids.length <= 101, `${kids.length} children`);
    assert.equal(kids[0].name, 'histogram');
    assert.equal(kids[1].name, '[0:10000]');
    assert.equal(kids[kids.length - 1].name, '[90000:100000]');
    assert.ok(wireSize(r) < 10000, `expansion response is ${wireSize(r)} bytes`);
    process.stdout.write(`      (full expansion incl. histogram of 10^8 elements: ${ms.toFixed(1)} ms)\n`);
    // A range expands into sub-ranges, then rows.
    const range = named(kids, '[50000:60000]');
    const sub = await s.variables(range.variablesReference);
    assert.equal(sub.length, 100);
    assert.equal(sub[0].name, '[50000:50100]');
    const rows = await s.variables(sub[0].variablesReference);
    assert.equal(rows.length, 100);
    assert.equal(rows[0].name, '[50000]');
    assert.match(rows[99].value, /^float32\[1000\] \[50099, /);
  });

  it('a small tensor expands to rows and elements; setVariable writes an element', async () => {
    const small = named(await s.scope(0, 'Globals'), 'small');
    assert.equal(small.value, 'float32[2, 2] /cpu:0 min=1 max=4 mean=2.5 std=1.118 nan=0 inf=0');
    const rows = await s.variables(small.variablesReference);
    assert.deepEqual(rows.map((v) => v.name), ['histogram', '[0]', '[1]']);
    const row1 = await s.variables(rows[2].variablesReference);
    assert.deepEqual(row1.map((v) => v.value), ['3', '4']);
    const set = await s.request('setVariable', { variablesReference: rows[2].variablesReference, name: '[1]', value: '40' });
    assert.equal(set.body.value, '40');
    assert.equal((await s.evaluate('float(tf.reduce_sum(small))')).result, '46.0');
  });
});
