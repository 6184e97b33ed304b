// What to do when the language server dies: restart it, tell the user once, and give up when it
// keeps crashing. Kept free of VS Code and of vscode-languageclient so the tests drive it with a
// fake clock and a fake notifier.

/// How the user hears about crashes; the extension passes vscode.window's message functions.
export interface Notifier {
  warn(message: string): void;
  error(message: string): void;
}

export interface RestartOptions {
  /// Crashes tolerated within windowMs before giving up.
  maxCrashes?: number;
  windowMs?: number;
  now?: () => number;
}

export type CrashDecision = 'restart' | 'give-up';

export const kCrashMessage =
  'The tensorlens language server crashed and was restarted. ' +
  'Hovers and diagnostics may lag for a moment. (Shown once; see the "tensorlens" output for details.)';

export function giveUpMessage(crashes: number, windowMs: number): string {
  return (
    `The tensorlens language server crashed ${crashes} times in ${Math.round(windowMs / 60000)} minutes ` +
    'and will not be restarted. Run "tensorlens: Restart language server" after fixing the cause.'
  );
}

/// Decides, for each crash, whether to restart. The first restart is announced with a warning;
/// later ones are silent (the status bar still shows them); giving up is an error message.
export class RestartSupervisor {
  private readonly maxCrashes: number;
  private readonly windowMs: number;
  private readonly now: () => number;
  private crashTimes: number[] = [];
  private announced = false;
  private gaveUp = false;

  constructor(private readonly notifier: Notifier, opts: RestartOptions = {}) {
    this.maxCrashes = opts.maxCrashes ?? 5;
    this.windowMs = opts.windowMs ?? 3 * 60 * 1000;
    this.now = opts.now ?? Date.now;
  }

  /// Called when the server's connection closes unexpectedly.
  onCrash(): CrashDecision {
    const t = this.now();
    this.crashTimes = this.crashTimes.filter((c) => t - c < this.windowMs);
    this.crashTimes.push(t);
    if (this.crashTimes.length >= this.maxCrashes) {
      if (!this.gaveUp) this.notifier.error(giveUpMessage(this.crashTimes.length, this.windowMs));
      this.gaveUp = true;
      return 'give-up';
    }
    if (!this.announced) {
      this.announced = true;
      this.notifier.warn(kCrashMessage);
    }
    return 'restart';
  }

  /// A manual restart clears the history, so the server gets a fresh allowance.
  reset(): void {
    this.crashTimes = [];
    this.gaveUp = false;
  }

  get crashCount(): number {
    return this.crashTimes.length;
  }
}
