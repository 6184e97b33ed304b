import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import { kCrashMessage, RestartSupervisor } from '../../src/restart';

function setup(opts: { maxCrashes?: number; windowMs?: number } = {}) {
  let t = 1_000_000;
  const warnings: string[] = [];
  const errors: string[] = [];
  const s = new RestartSupervisor(
    { warn: (m) => warnings.push(m), error: (m) => errors.push(m) },
    { ...opts, now: () => t },
  );
  return { s, warnings, errors, advance: (ms: number) => (t += ms) };
}

describe('restarting a crashed language server', () => {
  it('restarts after the first crash and says so once', () => {
    const { s, warnings, errors } = setup();
    assert.equal(s.onCrash(), 'restart');
    assert.deepEqual(warnings, [kCrashMessage]);
    assert.equal(s.onCrash(), 'restart');
    assert.equal(s.onCrash(), 'restart');
    assert.equal(warnings.length, 1, 'later restarts are silent');
    assert.equal(errors.length, 0);
  });

  it('gives up after too many crashes in the window, with one error', () => {
    const { s, errors } = setup({ maxCrashes: 3, windowMs: 60_000 });
    assert.equal(s.onCrash(), 'restart');
    assert.equal(s.onCrash(), 'restart');
    assert.equal(s.onCrash(), 'give-up');
    assert.equal(errors.length, 1);
    assert.match(errors[0], /crashed 3 times in 1 minutes/);
    assert.equal(s.onCrash(), 'give-up');
    assert.equal(errors.length, 1, 'giving up is said once');
  });

  it('keeps restarting when crashes are far apart', () => {
    const { s, advance } = setup({ maxCrashes: 3, windowMs: 60_000 });
    for (let i = 0; i < 10; ++i) {
      assert.equal(s.onCrash(), 'restart');
      advance(40_000);
    }
    assert.equal(s.crashCount, 1 + 1, 'only crashes inside the window count');
  });

  it('a manual restart gives a fresh allowance and does not repeat the warning', () => {
    const { s, warnings, errors } = setup({ maxCrashes: 2 });
    s.onCrash();
    assert.equal(s.onCrash(), 'give-up');
    s.reset();
    assert.equal(s.crashCount, 0);
    assert.equal(s.onCrash(), 'restart');
    assert.equal(warnings.length, 1);
    assert.equal(s.onCrash(), 'give-up');
    assert.equal(errors.length, 2, 'a new give-up after a reset is said again');
  });
});
