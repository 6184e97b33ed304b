// What the VS Code webview host provides to the page (stubbed by the browser test).
declare function acquireVsCodeApi(): { postMessage(message: unknown): void; setState(s: unknown): void; getState(): unknown };
