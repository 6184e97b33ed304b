// Tests of behaviour that is wrong today in code this suite does not own (dap/, lsp/, tools/).
// knownBug(reason, fn): fn asserts the right behaviour; while the bug is there it throws and the
// test passes as an expected failure (its title says so); once fixed the test fails and asks
// for the marker to be removed, so a fix is never silently unnoticed.
'use strict';

function knownBug(title, reason, fn) {
  it(`${title} [expected to fail: ${reason}]`, async function () {
    let failure = null;
    try {
      await fn.call(this);
    } catch (e) {
      failure = e;
    }
    if (!failure) throw new Error(`fixed? "${title}" passes now: remove its knownBug marker (${__filename})`);
  });
}

module.exports = { knownBug };
