/**
 * Keystrokes to the server in the order they were typed. Each keystroke would otherwise be its own
 * request, and two requests in flight can arrive in either order; so one send is in flight at a time,
 * and what is typed meanwhile goes out together in the next one.
 */
export class InputQueue {
  private pending = "";
  private inFlight = false;

  constructor(
    private readonly send: (data: string) => Promise<unknown>,
    private readonly onError: (error: unknown) => void,
    /** The server refuses larger writes; a bigger paste goes out in pieces, still in order. */
    private readonly maxChunk = 64 * 1024,
  ) {}

  push(data: string): void {
    if (data === "") return;
    this.pending += data;
    void this.flush();
  }

  /** True while something typed has not reached the server yet. */
  get busy(): boolean {
    return this.inFlight || this.pending !== "";
  }

  private async flush(): Promise<void> {
    if (this.inFlight) return;
    while (this.pending !== "") {
      const piece = this.pending.slice(0, this.maxChunk);
      this.pending = this.pending.slice(piece.length);
      this.inFlight = true;
      try {
        await this.send(piece);
      } catch (error) {
        // What was typed after a failure would land out of context: drop it with the failed piece.
        this.pending = "";
        this.onError(error);
      } finally {
        this.inFlight = false;
      }
    }
  }
}
