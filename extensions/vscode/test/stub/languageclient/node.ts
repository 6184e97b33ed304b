// A stand-in for `vscode-languageclient/node` in the activation tests: records what the
// extension asked for and lets a test drive state changes and crashes.

export enum State {
  Stopped = 1,
  Running = 2,
  Starting = 3,
}
export enum ErrorAction {
  Continue = 1,
  Shutdown = 2,
}
export enum CloseAction {
  DoNotRestart = 1,
  Restart = 2,
}
export enum TransportKind {
  stdio = 0,
  ipc = 1,
  pipe = 2,
  socket = 3,
}

export class LanguageClient {
  static instances: LanguageClient[] = [];
  /// When set, start() rejects with this error (as when the binary does not exist).
  static failStart: Error | undefined;
  state = State.Stopped;
  private listeners: ((e: { oldState: State; newState: State }) => void)[] = [];

  constructor(
    public readonly id: string,
    public readonly name: string,
    public readonly serverOptions: any,
    public readonly clientOptions: any,
  ) {
    LanguageClient.instances.push(this);
  }

  onDidChangeState(l: (e: { oldState: State; newState: State }) => void) {
    this.listeners.push(l);
    return { dispose: () => undefined };
  }

  setState(s: State): void {
    const old = this.state;
    this.state = s;
    for (const l of this.listeners) l({ oldState: old, newState: s });
  }

  async start(): Promise<void> {
    this.setState(State.Starting);
    if (LanguageClient.failStart) {
      this.setState(State.Stopped);
      throw LanguageClient.failStart;
    }
    this.setState(State.Running);
  }

  async stop(): Promise<void> {
    this.setState(State.Stopped);
  }

  /// The server process died: what the client library does is ask the error handler.
  crash(): { action: CloseAction; handled?: boolean } {
    this.setState(State.Stopped);
    const r = this.clientOptions.errorHandler.closed();
    if (r.action === CloseAction.Restart) {
      this.setState(State.Starting);
      this.setState(State.Running);
    }
    return r;
  }
}
