import "server-only";
/**
 * Bounded capture of a command's output. A runaway command (`yes`, a verbose build) must not fill the
 * server's memory or the model's context, but both ends matter: the head says what started, the tail
 * says how it ended (the error is usually last). So the first half of the budget keeps the head, the
 * second half a rolling tail, and the middle is replaced by a marker saying how much was dropped.
 */

export const DEFAULT_MAX_OUTPUT_BYTES = 256 * 1024;

export function truncationMarker(droppedBytes: number): string {
  return `\n…[${droppedBytes} bytes truncated]…\n`;
}

export class CappedOutput {
  private readonly headLimit: number;
  private readonly tailLimit: number;
  private head: Buffer[] = [];
  private headBytes = 0;
  private tail: Buffer[] = [];
  private tailBytes = 0;
  private total = 0;

  constructor(readonly maxBytes: number = DEFAULT_MAX_OUTPUT_BYTES) {
    if (!Number.isFinite(maxBytes) || maxBytes < 0)
      throw new RangeError("maxBytes must be a non-negative number");
    this.headLimit = Math.ceil(maxBytes / 2);
    this.tailLimit = Math.floor(maxBytes / 2);
  }

  push(chunk: Buffer): void {
    this.total += chunk.length;
    let rest = chunk;
    if (this.headBytes < this.headLimit) {
      const take = Math.min(this.headLimit - this.headBytes, rest.length);
      this.head.push(rest.subarray(0, take));
      this.headBytes += take;
      rest = rest.subarray(take);
    }
    if (rest.length === 0 || this.tailLimit === 0) return;
    this.tail.push(rest);
    this.tailBytes += rest.length;
    // Compact only when the tail holds twice its budget, so pushes stay amortised O(1).
    if (this.tailBytes > 2 * this.tailLimit) this.compactTail();
  }

  get totalBytes(): number {
    return this.total;
  }

  get truncated(): boolean {
    return this.total > this.maxBytes;
  }

  toString(): string {
    const head = Buffer.concat(this.head);
    if (!this.truncated) return Buffer.concat([head, ...this.tail]).toString("utf8");
    this.compactTail();
    const tail = Buffer.concat(this.tail);
    const headText = head.subarray(0, utf8SafeEnd(head));
    const tailStart = utf8SafeStart(tail);
    const dropped = this.total - headText.length - (tail.length - tailStart);
    return headText.toString("utf8") + truncationMarker(dropped) + tail.subarray(tailStart).toString("utf8");
  }

  private compactTail(): void {
    const all = Buffer.concat(this.tail);
    const kept = all.subarray(Math.max(0, all.length - this.tailLimit));
    this.tail = [kept];
    this.tailBytes = kept.length;
  }
}

/** Length of the longest prefix that does not end inside a multi-byte UTF-8 character. */
export function utf8SafeEnd(buf: Buffer): number {
  // Walk back over at most 3 continuation bytes to the lead byte of the last character.
  for (let i = buf.length - 1; i >= Math.max(0, buf.length - 4); i--) {
    const byte = buf[i] ?? 0;
    if ((byte & 0xc0) === 0x80) continue;
    const needed = byte >= 0xf0 ? 4 : byte >= 0xe0 ? 3 : byte >= 0xc0 ? 2 : 1;
    return i + needed <= buf.length ? buf.length : i;
  }
  return buf.length;
}

/** Offset of the first byte that starts a character (skips orphaned continuation bytes). */
export function utf8SafeStart(buf: Buffer): number {
  let i = 0;
  while (i < buf.length && i < 3 && ((buf[i] ?? 0) & 0xc0) === 0x80) i++;
  return i;
}
