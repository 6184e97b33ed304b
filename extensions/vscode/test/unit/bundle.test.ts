// The shipped bundle (dist/extension.js, with vscode-languageclient inside) loads in Node with
// only `vscode` provided by the host, and exports the entry points VS Code calls. A permissive
// stand-in answers every `vscode` member, since the language client subclasses many of them at
// load time.
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import Module from 'node:module';
import * as path from 'node:path';
import { describe, it } from 'node:test';

const bundle = path.resolve(__dirname, '../../../dist/extension.js');

function permissiveVscode(): unknown {
  const cache = new Map<PropertyKey, unknown>();
  return new Proxy(
    {},
    {
      get(_t, key) {
        if (key === '__esModule') return false;
        if (!cache.has(key)) {
          // A class that can be extended or constructed, and whose statics are themselves stand-ins.
          const Stub = class {};
          cache.set(key, new Proxy(Stub, { get: (target, k) => (k in target ? Reflect.get(target, k) : Stub) }));
        }
        return cache.get(key);
      },
    },
  );
}

describe('the bundle', { skip: existsSync(bundle) ? false : 'dist/extension.js is not built' }, () => {
  it('loads with only `vscode` from the host and exports activate and deactivate', () => {
    const m = Module as unknown as { _load: (request: string, ...rest: unknown[]) => unknown };
    const original = m._load;
    const fake = permissiveVscode();
    m._load = (request: string, ...rest: unknown[]) => (request === 'vscode' ? fake : original(request, ...rest));
    try {
      const ext = Module.createRequire(__filename)(bundle) as Record<string, unknown>;
      assert.equal(typeof ext.activate, 'function');
      assert.equal(typeof ext.deactivate, 'function');
    } finally {
      m._load = original;
    }
  });
});
