import { mkdir, readFile, rename, unlink, writeFile } from "node:fs/promises";
import path from "node:path";
import { tailLines } from "@/server/events/command-output";
import {
  type OutputSoFar,
  type OutputSoFarStore,
  SO_FAR_MAX_CHARS,
  SO_FAR_MAX_LINES,
} from "@/server/riva/output-so-far";

/**
 * The engine's `OutputSoFarStore` as one small JSON file per running command in the server's data
 * directory (`<data>/output-so-far/<cycleId>.json`, private like the database). Written when output
 * arrives (at most every WRITE_INTERVAL_MS) and on a heartbeat, each time to a temporary file renamed
 * over the old one, so a `kill -9` at any moment leaves the last whole record (the kernel keeps
 * written data when a process dies). Not events: a test run prints thousands of chunks (see
 * command-output.ts); only the tail of a command that is running now is kept, and dropped once its
 * result is in the log.
 */
export const WRITE_INTERVAL_MS = 250;
export const HEARTBEAT_MS = 1_000;

interface Entry {
  record: OutputSoFar;
  timer: NodeJS.Timeout | null;
  heartbeat: NodeJS.Timeout;
  /** The write in flight (writes of one file never overlap). */
  writing: Promise<void>;
  done: boolean;
}

const SAFE_ID = /^[A-Za-z0-9_-]{1,128}$/;

export class OutputSoFarFiles implements OutputSoFarStore {
  private readonly entries = new Map<string, Entry>();
  private ready: Promise<unknown> | null = null;

  constructor(
    private readonly dir: string,
    private readonly onError: (error: unknown) => void = () => undefined,
    private readonly clock: () => number = Date.now,
  ) {}

  start(cycleId: string): void {
    if (!SAFE_ID.test(cycleId) || this.entries.has(cycleId)) return;
    const now = this.clock();
    const entry: Entry = {
      record: { startedAt: now, seenAt: now, text: "", totalChars: 0 },
      timer: null,
      heartbeat: setInterval(() => this.write(cycleId, entry), HEARTBEAT_MS),
      writing: Promise.resolve(),
      done: false,
    };
    // A heartbeat must not keep a finished process alive.
    entry.heartbeat.unref();
    this.entries.set(cycleId, entry);
    this.write(cycleId, entry);
  }

  append(cycleId: string, chunk: string): void {
    const entry = this.entries.get(cycleId);
    if (!entry) return;
    entry.record.text = tailLines(entry.record.text + chunk, SO_FAR_MAX_LINES, SO_FAR_MAX_CHARS);
    entry.record.totalChars += chunk.length;
    if (entry.timer) return;
    entry.timer = setTimeout(() => {
      entry.timer = null;
      this.write(cycleId, entry);
    }, WRITE_INTERVAL_MS);
    entry.timer.unref();
  }

  finish(cycleId: string): void {
    const entry = this.entries.get(cycleId);
    if (!entry) return;
    this.entries.delete(cycleId);
    entry.done = true;
    if (entry.timer) clearTimeout(entry.timer);
    clearInterval(entry.heartbeat);
    // After the write in flight, so the file it renames into place is removed too.
    entry.writing = entry.writing.then(() => this.remove(cycleId));
  }

  async read(cycleId: string): Promise<OutputSoFar | null> {
    if (!SAFE_ID.test(cycleId)) return null;
    try {
      const parsed = JSON.parse(await readFile(this.file(cycleId), "utf8")) as Partial<OutputSoFar>;
      if (
        typeof parsed.startedAt !== "number" ||
        typeof parsed.seenAt !== "number" ||
        typeof parsed.text !== "string" ||
        typeof parsed.totalChars !== "number"
      )
        return null;
      return {
        startedAt: parsed.startedAt,
        seenAt: parsed.seenAt,
        text: tailLines(parsed.text, SO_FAR_MAX_LINES, SO_FAR_MAX_CHARS),
        totalChars: parsed.totalChars,
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "ENOENT") this.onError(error);
      return null;
    }
  }

  async forget(cycleId: string): Promise<void> {
    if (SAFE_ID.test(cycleId)) await this.remove(cycleId);
  }

  /** Resolves when every write in flight has landed (tests). */
  async settled(): Promise<void> {
    await Promise.all([...this.entries.values()].map((entry) => entry.writing));
  }

  private write(cycleId: string, entry: Entry): void {
    entry.writing = entry.writing.then(async () => {
      if (entry.done) return;
      entry.record.seenAt = this.clock();
      const body = JSON.stringify(entry.record);
      const file = this.file(cycleId);
      const temporary = `${file}.tmp`;
      try {
        this.ready ??= mkdir(this.dir, { recursive: true, mode: 0o700 });
        await this.ready;
        await writeFile(temporary, body, { mode: 0o600 });
        if (!entry.done) await rename(temporary, file);
        else await unlink(temporary).catch(() => undefined);
      } catch (error) {
        this.ready = null;
        this.onError(error);
      }
    });
  }

  private async remove(cycleId: string): Promise<void> {
    await unlink(this.file(cycleId)).catch((error: NodeJS.ErrnoException) => {
      if (error.code !== "ENOENT") this.onError(error);
    });
  }

  private file(cycleId: string): string {
    return path.join(this.dir, `${cycleId}.json`);
  }
}
