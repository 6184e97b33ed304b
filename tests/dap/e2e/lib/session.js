// Helpers for driving the real `tlens dap` with Microsoft's DebugClient
// (@vscode/debugadapter-testsupport): the binary under test, a client that keeps every event it
// receives (DebugClient.waitForEvent only sees events that arrive after it is called), and
// annotated fixture programs whose lines are named by a `#$ name` comment, as in tests/dap/*.cpp.
'use strict';

const assert = require('node:assert/strict');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { DebugClient } = require('@vscode/debugadapter-testsupport');

const kRepoRoot = path.resolve(__dirname, '..', '..', '..', '..');
const kFixtures = path.resolve(__dirname, '..', 'fixtures');

/// The `tlens` binary: $TLENS (run.sh sets it from its argument), else build/tlens.
function tlensPath() {
  const p = process.env.TLENS || path.join(kRepoRoot, 'build', 'tlens');
  if (!fs.existsSync(p)) throw new Error(`no tlens binary at ${p}: build it (cmake --build build --target tlens) or set TLENS`);
  return path.resolve(p);
}

/// How long a test waits for one event, in ms (a slow machine or a sanitizer build may raise it).
const kEventTimeout = Number(process.env.TLENS_E2E_EVENT_TIMEOUT_MS || 20000);

const kBufferedEvents = ['initialized', 'stopped', 'continued', 'exited', 'terminated', 'output', 'breakpoint', 'thread'];

/// A DebugClient plus an event log. `dc` is the DebugClient itself, for its requests and helpers.
class Session {
  /// Spawns `tlens dap` (DebugClient passes exactly one argument to the runtime it spawns).
  static async spawn() {
    const s = new Session(new DebugClient(tlensPath(), 'dap', 'tensorlens', { cwd: kRepoRoot }, !!process.env.TLENS_E2E_STDERR));
    s.dc.defaultTimeout = kEventTimeout;
    await s.dc.start();
    return s;
  }

  /// Connects to an adapter listening on 127.0.0.1:port (`tlens run --listen`, `tlens dap --port`).
  /// DebugClient turns its own timeouts off in this mode, so every wait here has one of its own.
  static async connect(port) {
    const s = new Session(new DebugClient('unused', 'unused', 'tensorlens'));
    await s.dc.start(port);
    return s;
  }

  constructor(dc) {
    this.dc = dc;
    this.queues = new Map(kBufferedEvents.map((e) => [e, []]));
    this.waiters = new Map(kBufferedEvents.map((e) => [e, []]));
    this.outputs = []; // every output event body, in order
    for (const name of kBufferedEvents) {
      dc.on(name, (ev) => {
        if (name === 'output') this.outputs.push(ev.body);
        ev.seq = ev.seq ?? 0;
        const w = this.waiters.get(name).shift();
        if (w) w(ev);
        else this.queues.get(name).push(ev);
      });
    }
  }

  /// The next event of that kind (buffered or still to come); rejects after `timeoutMs`.
  async event(name, timeoutMs = kEventTimeout) {
    return (await this.firstOf([name], timeoutMs)).ev;
  }

  /// The earliest event of any of these kinds: {name, ev}. Only that event is consumed.
  firstOf(names, timeoutMs = kEventTimeout) {
    for (const n of names) if (!this.queues.has(n)) throw new Error(`event '${n}' is not buffered`);
    let best = null;
    for (const n of names) {
      const q = this.queues.get(n);
      if (q.length > 0 && (best === null || q[0].seq < this.queues.get(best)[0].seq)) best = n;
    }
    if (best !== null) return Promise.resolve({ name: best, ev: this.queues.get(best).shift() });
    return new Promise((resolve, reject) => {
      const entries = [];
      const cleanup = () => {
        clearTimeout(timer);
        for (const [n, w] of entries) {
          const ws = this.waiters.get(n);
          const i = ws.indexOf(w);
          if (i >= 0) ws.splice(i, 1);
        }
      };
      const timer = setTimeout(() => {
        cleanup();
        reject(new Error(`no ${names.map((n) => `'${n}'`).join(' or ')} event within ${timeoutMs} ms; output so far:\n${this.output()}`));
      }, timeoutMs);
      for (const n of names) {
        const w = (ev) => {
          cleanup();
          resolve({ name: n, ev });
        };
        entries.push([n, w]);
        this.waiters.get(n).push(w);
      }
    });
  }

  /// Everything the adapter printed so far (optionally one category: stdout, stderr, console).
  output(category) {
    return this.outputs.filter((o) => !category || o.category === category).map((o) => o.output).join('');
  }

  /// Resolves once the output contains `text`.
  async waitForOutput(text, timeoutMs = kEventTimeout) {
    const deadline = Date.now() + timeoutMs;
    while (!this.output().includes(text)) {
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`output never contained ${JSON.stringify(text)}; it was:\n${this.output()}`);
      await this.event('output', left).catch(() => undefined);
    }
  }

  /// Any request, with a time limit (DebugClient's requests have none).
  request(command, args, timeoutMs = kEventTimeout) {
    let timer;
    return Promise.race([
      this.dc.customRequest(command, args).finally(() => clearTimeout(timer)),
      new Promise((_, reject) => {
        timer = setTimeout(() => reject(new Error(`no response to '${command}' within ${timeoutMs} ms`)), timeoutMs);
      }),
    ]);
  }

  /// initialize + launch, breakpoints, then configurationDone; returns the initialize response body.
  /// `lineBreakpoints`: [{line, condition?, hitCondition?, logMessage?}] in `program`.
  async start(program, { lineBreakpoints = [], launch = {}, filters, functionBreakpoints } = {}) {
    const init = await this.request('initialize', { adapterID: 'tensorlens', linesStartAt1: true, columnsStartAt1: true, pathFormat: 'path' });
    await this.request('launch', { program, ...launch });
    await this.configure(program, { lineBreakpoints, filters, functionBreakpoints });
    return init.body;
  }

  /// What a client does between `initialized` and `configurationDone`.
  async configure(program, { lineBreakpoints = [], filters, functionBreakpoints } = {}) {
    await this.event('initialized');
    if (lineBreakpoints.length > 0) {
      const r = await this.request('setBreakpoints', { source: { path: program }, breakpoints: lineBreakpoints });
      for (const bp of r.body.breakpoints) assert.equal(bp.verified, true, `breakpoint not verified: ${JSON.stringify(bp)}`);
    }
    if (functionBreakpoints) await this.request('setFunctionBreakpoints', { breakpoints: functionBreakpoints });
    if (filters) await this.request('setExceptionBreakpoints', { filters });
    await this.request('configurationDone');
  }

  async stackTrace() {
    return (await this.request('stackTrace', { threadId: 1 })).body.stackFrames;
  }

  /// The variables of a named scope of a frame (0 = top).
  async scope(frameIndex, name) {
    const frames = await this.stackTrace();
    const scopes = (await this.request('scopes', { frameId: frames[frameIndex].id })).body.scopes;
    const s = scopes.find((x) => x.name === name);
    assert.ok(s, `no scope '${name}' in ${JSON.stringify(scopes.map((x) => x.name))}`);
    return this.variables(s.variablesReference);
  }

  async variables(variablesReference, extra = {}) {
    return (await this.request('variables', { variablesReference, ...extra })).body.variables;
  }

  async evaluate(expression, context = 'repl', frameIndex = 0) {
    const frames = await this.stackTrace();
    return (await this.request('evaluate', { expression, context, frameId: frames[frameIndex].id })).body;
  }

  /// Disconnects (ending the program) and stops the adapter process (DebugClient.stop() would
  /// wait forever for the answer of an adapter that died).
  async close() {
    await this.request('disconnect', {}, 5000).catch(() => undefined);
    this.dc.stopAdapter();
  }
}

/// The variable of that name; fails listing the names there were.
function named(variables, name) {
  const v = variables.find((x) => x.name === name);
  assert.ok(v, `no variable '${name}' in ${JSON.stringify(variables.map((x) => x.name))}`);
  return v;
}

/// An annotated program: `#$ name` at the end of a line names that line.
class Fixture {
  /// A file of tests/dap/e2e/fixtures/, or of the repository (`examples/tfdbg_nan.py`).
  static file(rel) {
    const p = fs.existsSync(path.join(kFixtures, rel)) ? path.join(kFixtures, rel) : path.join(kRepoRoot, rel);
    return new Fixture(p, fs.readFileSync(p, 'utf8'));
  }

  /// A program written to a fresh temporary directory.
  static text(name, text) {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tlens-e2e-'));
    const p = path.join(dir, name);
    fs.writeFileSync(p, text);
    return new Fixture(p, text);
  }

  constructor(p, text) {
    this.path = p;
    this.lines = text.split('\n');
  }

  /// The 1-based line carrying `#$ name`.
  line(name) {
    const re = new RegExp(`#\\$ ${name}\\s*$`);
    const i = this.lines.findIndex((l) => re.test(l));
    if (i < 0) throw new Error(`${this.path} has no line marked '#$ ${name}'`);
    return i + 1;
  }

  /// The 1-based line containing `text`.
  find(text) {
    const i = this.lines.findIndex((l) => l.includes(text));
    if (i < 0) throw new Error(`${this.path} has no line containing ${JSON.stringify(text)}`);
    return i + 1;
  }
}

module.exports = { Session, Fixture, named, tlensPath, kRepoRoot, kEventTimeout };
