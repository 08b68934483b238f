import { mkdtemp, readdir, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { SO_FAR_MAX_CHARS, SO_FAR_MAX_LINES } from "@/server/riva/output-so-far";
import { HEARTBEAT_MS, OutputSoFarFiles } from "./output-so-far-files";

let dir = "";
beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), "arbor-so-far-"));
});
afterEach(async () => rm(dir, { recursive: true, force: true }));

const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe("a running command's output kept across a crash", () => {
  it("keeps the capped tail and a heartbeat on disk, readable by a new process, and drops it once finished", async () => {
    let now = 10_000;
    const files = new OutputSoFarFiles(path.join(dir, "so-far"), undefined, () => now);
    files.start("cycle-1");
    const lines = Array.from({ length: 100 }, (_, index) => `line ${index + 1}\n`).join("");
    files.append("cycle-1", lines);
    files.append("cycle-1", "second\n");
    now = 13_000;
    await wait(HEARTBEAT_MS + 300);
    await files.settled();

    // What a restarted server reads: another instance over the same directory.
    const restarted = new OutputSoFarFiles(path.join(dir, "so-far"));
    const kept = await restarted.read("cycle-1");
    expect(kept).toMatchObject({ startedAt: 10_000, seenAt: 13_000, totalChars: lines.length + 7 });
    // The last SO_FAR_MAX_LINES lines only.
    expect(kept?.text.split("\n").slice(0, 2)).toEqual([
      `line ${100 - SO_FAR_MAX_LINES + 2}`,
      `line ${100 - SO_FAR_MAX_LINES + 3}`,
    ]);
    expect(kept?.text.endsWith("line 100\nsecond\n")).toBe(true);

    // A single huge line is cut to SO_FAR_MAX_CHARS.
    files.append("cycle-1", "x".repeat(SO_FAR_MAX_CHARS * 2));
    await wait(400);
    await files.settled();
    expect((await restarted.read("cycle-1"))?.text).toHaveLength(SO_FAR_MAX_CHARS);

    files.finish("cycle-1");
    await wait(50);
    await files.settled();
    expect(await restarted.read("cycle-1")).toBeNull();
    expect(await readdir(path.join(dir, "so-far"))).toEqual([]);
  });

  it("reads nothing for an unknown, unsafe or damaged record, and forget removes it", async () => {
    const files = new OutputSoFarFiles(dir);
    expect(await files.read("nope")).toBeNull();
    expect(await files.read("../etc/passwd")).toBeNull();
    files.start("c2");
    await files.settled();
    expect(await files.read("c2")).toMatchObject({ text: "", totalChars: 0 });
    await files.forget("c2");
    expect(await files.read("c2")).toBeNull();
    files.finish("c2");
  });
});
