// The Neovim configuration in docs/editors/neovim.md, run verbatim in headless Neovim (Debian's
// `neovim`, 0.7) against a fake `tlens lsp` on PATH: the client must start, send the documented
// initialization options and root, and show the server's diagnostic. The nvim-dap block is
// only parsed (nvim-dap is not packaged for Debian). When a built `tlens` exists, the same
// configuration also runs against the real language server.
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { describe, it } from 'node:test';

const root = path.resolve(__dirname, '../../..');
const doc = readFileSync(path.resolve(root, '../../docs/editors/neovim.md'), 'utf8');

function nvimPath(): string | undefined {
  try {
    return execFileSync('sh', ['-c', 'command -v nvim'], { encoding: 'utf8' }).trim() || undefined;
  } catch {
    return undefined;
  }
}

function block(name: string): string {
  const m = new RegExp(`<!-- ${name}-begin -->\\s*\`\`\`lua\\n([\\s\\S]*?)\`\`\`\\s*<!-- ${name}-end -->`).exec(doc);
  assert.ok(m, `docs/editors/neovim.md has a ${name} block`);
  return m[1];
}

/// Runs headless Neovim with the doc's LSP block as init.lua and `checkLua` (which writes the JSON
/// result to the path it is given as `OUT`), returning that result.
function runLspCheck(dir: string, checkLua: string, env: NodeJS.ProcessEnv, timeout: number): any {
  const config = path.join(dir, 'init.lua');
  writeFileSync(config, 'vim.cmd("filetype on")\n' + block('neovim-lsp'));
  const out = path.join(dir, 'result.json');
  const check = path.join(dir, 'check.lua');
  writeFileSync(check, checkLua.replace(/OUT/g, out));
  const r = spawnSync(nvim as string, ['--headless', '--clean', '-u', config, '-c', `luafile ${check}`], {
    env,
    encoding: 'utf8',
    timeout,
  });
  assert.equal(r.status, 0, `nvim exited with ${r.status}: ${r.stderr}`);
  return JSON.parse(readFileSync(out, 'utf8'));
}

const nvim = nvimPath();
const skip = nvim ? false : 'no nvim on PATH (apt-get install neovim)';

describe('docs/editors/neovim.md in headless Neovim', { skip }, () => {
  it('the LSP configuration starts `tlens lsp` and shows its diagnostics', () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'tlens-nvim-'));
    const bin = path.join(dir, 'bin');
    const project = path.join(dir, 'project');
    execFileSync('mkdir', ['-p', bin, path.join(project, '.git'), path.join(project, 'pkg')]);
    const logFile = path.join(dir, 'lsp.log');
    const fake = path.join(bin, 'tlens');
    writeFileSync(
      fake,
      `#!/bin/sh\n[ "$1" = lsp ] || exit 2\nexec node ${JSON.stringify(path.join(root, 'test/editors/fakeLsp.js'))}\n`,
    );
    chmodSync(fake, 0o755);
    const prog = path.join(project, 'pkg', 'prog.py');
    writeFileSync(prog, 'c = tf.matmul(a, b)\n');
    const result = runLspCheck(
      dir,
      `
vim.cmd('edit ${prog}')
local ok = vim.wait(10000, function() return #vim.diagnostic.get(0) > 0 end, 50)
local names = {}
for _, c in pairs(vim.lsp.buf_get_clients(0)) do table.insert(names, c.name) end
local diags = {}
for _, d in ipairs(vim.diagnostic.get(0)) do
  table.insert(diags, { lnum = d.lnum, col = d.col, message = d.message, severity = d.severity })
end
local f = io.open('OUT', 'w')
f:write(vim.fn.json_encode({ ok = ok, clients = names, diagnostics = diags }))
f:close()
vim.cmd('qa!')
`,
      { ...process.env, PATH: `${bin}:${process.env.PATH}`, FAKE_LSP_LOG: logFile },
      30_000,
    );
    assert.deepEqual(result.clients, ['tlens']);
    assert.equal(result.ok, true, 'a diagnostic arrived');
    assert.deepEqual(result.diagnostics, [
      { lnum: 0, col: 4, message: 'inner dimensions must be equal, but are 3 and 4', severity: 1 },
    ]);
    const messages = readFileSync(logFile, 'utf8').trim().split('\n').map((l) => JSON.parse(l));
    const init = messages.find((m) => m.method === 'initialize');
    assert.deepEqual(init.params.initializationOptions, { analysisBudgetMs: 10000, inlayHints: true });
    assert.equal(init.params.rootUri, `file://${project}`, 'the root is the folder holding .git');
    assert.ok(messages.some((m) => m.method === 'textDocument/didOpen' && m.params.textDocument.languageId === 'python'));
  });

  const realTlens = process.env.TLENS ?? path.resolve(root, '../../build/tlens');
  it(
    'the same configuration against the real `tlens lsp`: its shape error and a hover',
    { skip: existsSync(realTlens) ? false : `no tlens binary at ${realTlens} (build it, or set TLENS)` },
    () => {
      const dir = mkdtempSync(path.join(os.tmpdir(), 'tlens-nvim-real-'));
      const bin = path.join(dir, 'bin');
      const project = path.join(dir, 'project');
      execFileSync('mkdir', ['-p', bin, path.join(project, '.git')]);
      symlinkSync(realTlens, path.join(bin, 'tlens'));
      const prog = path.join(project, 'prog.py');
      writeFileSync(
        prog,
        'import tensorflow as tf\n' +
          'x = tf.placeholder(tf.float32, [None, 784])\n' +
          'w = tf.Variable(tf.zeros([10, 5]))\n' +
          'y = tf.matmul(x, w)\n',
      );
      const result = runLspCheck(dir, `
vim.cmd('edit ${prog}')
local ok = vim.wait(20000, function() return #vim.diagnostic.get(0) > 0 end, 50)
local diags = {}
for _, d in ipairs(vim.diagnostic.get(0)) do
  table.insert(diags, { lnum = d.lnum, message = d.message, severity = d.severity })
end
local params = { textDocument = vim.lsp.util.make_text_document_params(), position = { line = 1, character = 0 } }
local res = vim.lsp.buf_request_sync(0, 'textDocument/hover', params, 10000)
local hover = ''
for _, r in pairs(res or {}) do
  if r.result and r.result.contents then hover = r.result.contents.value or '' end
end
local f = io.open('OUT', 'w')
f:write(vim.fn.json_encode({ ok = ok, diagnostics = diags, hover = hover }))
f:close()
vim.cmd('qa!')
`, { ...process.env, PATH: `${bin}:${process.env.PATH}` }, 60_000);
      assert.equal(result.ok, true, 'a diagnostic arrived from tlens lsp');
      const errors = result.diagnostics.filter((d: { severity: number }) => d.severity === 1);
      assert.equal(errors.length, 1, JSON.stringify(result.diagnostics));
      assert.equal(errors[0].lnum, 3);
      assert.match(errors[0].message, /Dimensions must be equal, but are 784 and 10/);
      assert.match(result.hover, /float32\[.*784\]/, `hover was: ${result.hover}`);
    },
  );

  it('the nvim-dap configuration is valid Lua', () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'tlens-nvim-'));
    const file = path.join(dir, 'dap.lua');
    writeFileSync(file, block('neovim-dap'));
    const r = spawnSync(
      nvim as string,
      ['--headless', '--clean', '-c', `lua local f, e = loadfile('${file}'); if not f then io.stderr:write(e); vim.cmd('cq') end`, '-c', 'qa!'],
      { encoding: 'utf8', timeout: 30_000 },
    );
    assert.equal(r.status, 0, r.stderr);
  });
});
