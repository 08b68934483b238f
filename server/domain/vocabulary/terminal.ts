/** What the terminal subscription sends the browser (server/terminal/hub.ts): its wire format. */
export type TerminalFrame =
  /** No terminal is open for the session. */
  | { kind: "idle" }
  /** Clear the screen and write this: the retained scrollback of `terminalId`. */
  | { kind: "reset"; terminalId: string; data: string }
  | { kind: "output"; terminalId: string; data: string }
  | {
      kind: "closed";
      terminalId: string;
      reason: "closed" | "idle" | "exited" | "shutdown";
      exitCode: number | null;
    };
