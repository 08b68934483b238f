/**
 * The recent output of one terminal, bounded, addressed by offsets: offset N is the position after the
 * first N characters the shell ever produced. A watcher that remembers the offset it reached gets
 * exactly what it missed (`since`), or, when that has already been dropped, the whole retained
 * screen (`snapshot`) to start over from.
 *
 * Offsets and capacity count UTF-16 code units of the decoded output (for terminal output, mostly
 * ASCII, about one byte each). It keeps at least the last `capacity` characters (less the start of a
 * cut line) and at most an eighth more: trimming only past that slack keeps a keystroke's echo from
 * copying the whole buffer each time.
 */
export const DEFAULT_SCROLLBACK_CHARS = 256 * 1024;

/** When output is dropped mid-line, the retained text starts after the next newline within this reach. */
const LINE_ALIGN_REACH = 4 * 1024;

export class Scrollback {
  private chunks: string[] = [];
  private size = 0;
  private startOffset = 0;

  private readonly slack: number;

  constructor(readonly capacity = DEFAULT_SCROLLBACK_CHARS) {
    if (!Number.isInteger(capacity) || capacity < 1) throw new RangeError(`Invalid capacity: ${capacity}`);
    this.slack = Math.floor(capacity / 8);
  }

  /** Most characters ever retained at once. */
  get maxRetained(): number {
    return this.capacity + this.slack;
  }

  /** Offset of the first retained character. */
  get start(): number {
    return this.startOffset;
  }

  /** Offset after the last character ever appended. */
  get end(): number {
    return this.startOffset + this.size;
  }

  /** Appends output; returns the new end offset. */
  append(text: string): number {
    if (text.length > 0) {
      this.chunks.push(text);
      this.size += text.length;
      if (this.size > this.capacity + this.slack) this.trim();
    }
    return this.end;
  }

  /** The output after `offset`, or null when part of it is no longer retained (or never existed). */
  since(offset: number): string | null {
    if (!Number.isInteger(offset) || offset < this.startOffset || offset > this.end) return null;
    return this.snapshot().slice(offset - this.startOffset);
  }

  /** Everything retained, from `start` to `end`. */
  snapshot(): string {
    if (this.chunks.length > 1) this.chunks = [this.chunks.join("")];
    return this.chunks[0] ?? "";
  }

  private trim(): void {
    const text = this.chunks.join("");
    let cut = text.length - this.capacity;
    // Starting at a line boundary keeps a replay from beginning inside an escape sequence or a line.
    const newline = text.indexOf("\n", cut);
    if (newline !== -1 && newline - cut < LINE_ALIGN_REACH) cut = newline + 1;
    // Never split a surrogate pair.
    else if (isLowSurrogate(text.charCodeAt(cut))) cut += 1;
    this.chunks = [text.slice(cut)];
    this.size = text.length - cut;
    this.startOffset += cut;
  }
}

function isLowSurrogate(code: number): boolean {
  return code >= 0xdc00 && code <= 0xdfff;
}
