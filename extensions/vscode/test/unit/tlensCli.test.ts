import assert from 'node:assert/strict';
import { chmodSync, mkdtempSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { describe, it } from 'node:test';

import { runTlens } from '../../src/tlensCli';

describe('running tlens', () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'tlens-cli-'));
  const fake = path.join(dir, 'tlens');
  writeFileSync(fake, '#!/bin/sh\necho "args: $*"\necho "cwd: $(pwd)"\necho oops >&2\n[ "$1" = check ] && exit 1\nexit 0\n');
  chmodSync(fake, 0o755);

  it('returns the output, the working directory and the exit code', async () => {
    const r = await runTlens(fake, ['graph', '--format', 'json', 'p.py'], dir);
    assert.equal(r.code, 0);
    assert.equal(r.stdout, `args: graph --format json p.py\ncwd: ${dir}\n`);
    assert.equal(r.stderr, 'oops\n');
  });

  it('passes a non-zero exit code through (tlens check exits 1 on errors)', async () => {
    assert.equal((await runTlens(fake, ['check', '.'], dir)).code, 1);
  });

  it('says which setting to fix when the binary does not exist', async () => {
    await assert.rejects(runTlens(path.join(dir, 'missing'), ['graph']), /was not found at ".*missing": set "tensorlens.path"/);
  });

  it('stops a command that runs too long', async () => {
    const slow = path.join(dir, 'slow');
    writeFileSync(slow, '#!/bin/sh\nsleep 5\n');
    chmodSync(slow, 0o755);
    await assert.rejects(runTlens(slow, ['graph'], dir, 200), /took longer than 0.2 s/);
  });
});
