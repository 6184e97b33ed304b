// A stand-in for the `vscode` module in unit tests (esbuild aliases `vscode` to this file). It
// implements only what the extension's own logic touches, and records what the code under test
// did (messages shown, status-bar items made) for the tests to assert.

export const recorded = {
  errors: [] as string[],
  warnings: [] as string[],
  infos: [] as string[],
  statusBarItems: [] as StatusBarItemStub[],
};

export function resetRecorded(): void {
  recorded.errors = [];
  recorded.warnings = [];
  recorded.infos = [];
  recorded.statusBarItems = [];
}

let configuration: Record<string, unknown> = {};
export function setConfiguration(values: Record<string, unknown>): void {
  configuration = { ...values };
}

export enum StatusBarAlignment {
  Left = 1,
  Right = 2,
}

export enum DiagnosticSeverity {
  Error = 0,
  Warning = 1,
  Information = 2,
  Hint = 3,
}

export enum ProgressLocation {
  SourceControl = 1,
  Window = 10,
  Notification = 15,
}

export enum ViewColumn {
  Active = -1,
  Beside = -2,
  One = 1,
  Two = 2,
}

export class ThemeColor {
  constructor(public readonly id: string) {}
}

export class StatusBarItemStub {
  text = '';
  tooltip: string | undefined;
  name: string | undefined;
  command: string | undefined;
  backgroundColor: ThemeColor | undefined;
  visible = false;
  disposed = false;
  constructor(public readonly id: string, public readonly alignment: StatusBarAlignment, public readonly priority: number) {}
  show(): void {
    this.visible = true;
  }
  hide(): void {
    this.visible = false;
  }
  dispose(): void {
    this.disposed = true;
  }
}

export const window = {
  activeTextEditor: undefined as undefined | { document: { uri: { fsPath: string }; languageId: string } },
  showErrorMessage(m: string): Promise<undefined> {
    recorded.errors.push(m);
    return Promise.resolve(undefined);
  },
  showWarningMessage(m: string): Promise<undefined> {
    recorded.warnings.push(m);
    return Promise.resolve(undefined);
  },
  showInformationMessage(m: string): Promise<undefined> {
    recorded.infos.push(m);
    return Promise.resolve(undefined);
  },
  createStatusBarItem(id: string, alignment: StatusBarAlignment, priority: number): StatusBarItemStub {
    const item = new StatusBarItemStub(id, alignment, priority);
    recorded.statusBarItems.push(item);
    return item;
  },
};

export const workspace = {
  workspaceFolders: undefined as undefined | { uri: { fsPath: string } }[],
  getConfiguration(section?: string) {
    const prefix = section ? section + '.' : '';
    return {
      get<T>(key: string, defaultValue?: T): T | undefined {
        const v = configuration[prefix + key];
        return v === undefined ? defaultValue : (v as T);
      },
    };
  },
};

export class DebugAdapterExecutable {
  constructor(
    public readonly command: string,
    public readonly args: string[] = [],
    public readonly options: { cwd?: string; env?: Record<string, string> } = {},
  ) {}
}

export class DebugAdapterServer {
  constructor(public readonly port: number, public readonly host?: string) {}
}

export class Position {
  constructor(public readonly line: number, public readonly character: number) {}
}

export class Range {
  constructor(public readonly start: Position, public readonly end: Position) {}
}

export class Uri {
  private constructor(public readonly scheme: string, public readonly fsPath: string) {}
  static file(p: string): Uri {
    return new Uri('file', p);
  }
  static joinPath(base: Uri, ...parts: string[]): Uri {
    return new Uri(base.scheme, [base.fsPath, ...parts].join('/'));
  }
  toString(): string {
    return `${this.scheme}://${this.fsPath}`;
  }
}

export class Location {
  constructor(public readonly uri: Uri, public readonly range: Position | Range) {}
}

export class DiagnosticRelatedInformation {
  constructor(public readonly location: Location, public readonly message: string) {}
}

export class Diagnostic {
  source: string | undefined;
  code: string | number | undefined;
  relatedInformation: DiagnosticRelatedInformation[] | undefined;
  constructor(public readonly range: Range, public readonly message: string, public readonly severity: DiagnosticSeverity) {}
}

// --- registration APIs used by activate() --------------------------------------------------------

export interface Disposable {
  dispose(): void;
}
const disposable = (): Disposable => ({ dispose: () => undefined });

export const registered = {
  commands: new Map<string, (...args: unknown[]) => unknown>(),
  configurationProviders: new Map<string, unknown>(),
  descriptorFactories: new Map<string, unknown>(),
  trackerFactories: new Map<string, unknown>(),
  diagnosticCollections: [] as string[],
  outputChannels: [] as string[],
};

export const commands = {
  registerCommand(id: string, fn: (...args: unknown[]) => unknown): Disposable {
    if (registered.commands.has(id)) throw new Error(`command ${id} registered twice`);
    registered.commands.set(id, fn);
    return { dispose: () => registered.commands.delete(id) };
  },
  executeCommand(): Promise<undefined> {
    return Promise.resolve(undefined);
  },
};

export const debug = {
  activeDebugSession: undefined as unknown,
  registerDebugConfigurationProvider(type: string, p: unknown): Disposable {
    registered.configurationProviders.set(type, p);
    return disposable();
  },
  registerDebugAdapterDescriptorFactory(type: string, f: unknown): Disposable {
    registered.descriptorFactories.set(type, f);
    return disposable();
  },
  registerDebugAdapterTrackerFactory(type: string, f: unknown): Disposable {
    registered.trackerFactories.set(type, f);
    return disposable();
  },
  startDebugging(): Promise<boolean> {
    return Promise.resolve(true);
  },
};

export const languages = {
  createDiagnosticCollection(name: string) {
    registered.diagnosticCollections.push(name);
    return { name, set: () => undefined, clear: () => undefined, dispose: () => undefined };
  },
};

export function createOutputChannelStub(name: string) {
  registered.outputChannels.push(name);
  const lines: string[] = [];
  return { name, lines, append: (s: string) => lines.push(s), appendLine: (s: string) => lines.push(s), show: () => undefined, dispose: () => undefined };
}
(window as Record<string, unknown>).createOutputChannel = createOutputChannelStub;
/// Listeners of workspace.onDidChangeConfiguration; changeConfiguration() sets values and fires.
const configurationListeners = new Set<(e: { affectsConfiguration(section: string): boolean }) => void>();
(workspace as Record<string, unknown>).onDidChangeConfiguration = (l: (e: { affectsConfiguration(section: string): boolean }) => void) => {
  configurationListeners.add(l);
  return { dispose: () => configurationListeners.delete(l) };
};
export function changeConfiguration(values: Record<string, unknown>): void {
  configuration = { ...configuration, ...values };
  const changed = Object.keys(values);
  const e = { affectsConfiguration: (section: string) => changed.some((k) => k === section || k.startsWith(section + '.')) };
  for (const l of [...configurationListeners]) l(e);
}

// --- webviews and editors, for the graph panel ---------------------------------------------------

export class WebviewPanelStub {
  posted: unknown[] = [];
  html = '';
  revealed = 0;
  disposed = false;
  private onMessage: ((m: unknown) => void) | undefined;
  private onDispose: (() => void) | undefined;
  readonly webview = {
    cspSource: 'vscode-webview://stub',
    get html(): string {
      return '';
    },
    asWebviewUri: (u: Uri) => Uri.file(`webview${u.fsPath}`),
    postMessage: (m: unknown) => {
      this.posted.push(m);
      return Promise.resolve(true);
    },
    onDidReceiveMessage: (fn: (m: unknown) => void) => {
      this.onMessage = fn;
      return { dispose: () => undefined };
    },
  };
  constructor(public readonly viewType: string, public title: string, public readonly options: unknown) {
    const self = this;
    Object.defineProperty(this.webview, 'html', {
      get: () => self.html,
      set: (v: string) => {
        self.html = v;
      },
    });
  }
  /// What the page would post.
  receive(m: unknown): void {
    this.onMessage?.(m);
  }
  reveal(): void {
    this.revealed++;
  }
  onDidDispose(fn: () => void) {
    this.onDispose = fn;
    return { dispose: () => undefined };
  }
  dispose(): void {
    this.disposed = true;
    this.onDispose?.();
  }
}

export const shown: { panels: WebviewPanelStub[]; documents: { path: string; options: unknown }[] } = {
  panels: [],
  documents: [],
};

Object.assign(window, {
  createWebviewPanel(viewType: string, title: string, _column: unknown, options: unknown) {
    const p = new WebviewPanelStub(viewType, title, options);
    shown.panels.push(p);
    return p;
  },
  withProgress<T>(_o: unknown, task: () => Promise<T>): Promise<T> {
    return task();
  },
  showTextDocument(doc: { uri: Uri }, options: unknown) {
    shown.documents.push({ path: doc.uri.fsPath, options });
    return Promise.resolve({});
  },
});
Object.assign(workspace, {
  openTextDocument(uri: Uri) {
    return Promise.resolve({ uri });
  },
});
