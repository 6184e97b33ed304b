// Builds the extension (dist/extension.js), the graph page (dist/media/), and with --tests the
// unit tests (out/test/unit/*.test.js, with `vscode` replaced by test/stub/vscode.ts).
import { build } from 'esbuild';
import { copyFileSync, mkdirSync, readdirSync, rmSync } from 'fs';

const tests = process.argv.includes('--tests');
const production = process.argv.includes('--production');

// A production build must not ship a stale source map from an earlier development build.
rmSync('dist', { recursive: true, force: true });

await build({
  entryPoints: ['src/extension.ts'],
  bundle: true,
  platform: 'node',
  format: 'cjs',
  target: 'node18',
  outfile: 'dist/extension.js',
  external: ['vscode'],
  sourcemap: !production,
  minify: production,
  logLevel: 'warning',
});

mkdirSync('dist/media', { recursive: true });
await build({
  entryPoints: ['media/graphView.js'],
  bundle: true,
  platform: 'browser',
  format: 'iife',
  target: 'chrome110',
  outfile: 'dist/media/graphView.js',
  sourcemap: !production,
  minify: production,
  logLevel: 'warning',
});
copyFileSync('media/graphView.css', 'dist/media/graphView.css');

if (tests) {
  rmSync('out', { recursive: true, force: true });
  // activate.test.ts loads the whole extension, with the language client replaced by a fake
  // (test/stub/languageclient/node.ts); the other tests never load it.
  const entries = readdirSync('test/unit')
    .filter((f) => f.endsWith('.test.ts') && f !== 'activate.test.ts')
    .map((f) => `test/unit/${f}`);
  await build({
    entryPoints: ['test/unit/activate.test.ts'],
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node18',
    outdir: 'out/test/unit',
    alias: { vscode: './test/stub/vscode.ts', 'vscode-languageclient': './test/stub/languageclient' },
    sourcemap: 'inline',
    logLevel: 'warning',
  });
  await build({
    entryPoints: entries,
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node18',
    outdir: 'out/test/unit',
    alias: { vscode: './test/stub/vscode.ts' },
    // The language client is not unit-tested here (it needs a real editor); keep it out.
    external: ['vscode-languageclient', 'vscode-languageclient/node'],
    sourcemap: 'inline',
    logLevel: 'warning',
  });
  await build({
    entryPoints: ['test/browser/graphView.test.ts', 'test/editors/neovim.test.ts', 'test/editors/emacs.test.ts'],
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node18',
    outdir: 'out/test',
    outbase: 'test',
    external: ['playwright-core'],
    sourcemap: 'inline',
    logLevel: 'warning',
  });
}
