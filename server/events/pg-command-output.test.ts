import { afterEach, describe, expect, it } from "vitest";
import type { LiveCommandOutput } from "@/server/domain/session/live-output";
import { commandOutput } from "./command-output";
import { MAX_PAYLOAD_BYTES, relayPayload } from "./pg-command-output";

const output = (text: string): LiveCommandOutput => ({
  runId: "r",
  intentionId: "i",
  cycleId: "relay-c1",
  text,
  totalChars: 123_456,
  done: false,
});

describe("relayPayload", () => {
  it("sends a short tail whole", () => {
    const parsed = JSON.parse(relayPayload("a:1:x", "s1", output("one\ntwo\n")));
    expect(parsed).toEqual({ instance: "a:1:x", sessionId: "s1", output: output("one\ntwo\n") });
  });

  it("cuts a long tail to whole last lines under NOTIFY's limit, multi-byte and escaped text included", () => {
    const lines = Array.from({ length: 200 }, (_, i) => `line ${i} é"\\ ${"€".repeat(30)}\n`).join("");
    const payload = relayPayload("a:1:x", "s1", output(lines));
    expect(Buffer.byteLength(payload)).toBeLessThanOrEqual(MAX_PAYLOAD_BYTES);
    const text: string = JSON.parse(payload).output.text;
    expect(text.endsWith(`line 199 é"\\ ${"€".repeat(30)}\n`)).toBe(true);
    expect(text.startsWith("line ")).toBe(true);
    expect(lines.endsWith(text)).toBe(true);
    expect(JSON.parse(payload).output.totalChars).toBe(123_456);
    // One line longer than the limit: its end.
    const long = JSON.parse(relayPayload("a:1:x", "s1", output(`${"x".repeat(20_000)}END`))).output.text;
    expect(long.endsWith("xEND")).toBe(true);
    expect(long.length).toBeGreaterThan(1_000);
  });
});

describe("the hub's relay", () => {
  afterEach(() => {
    commandOutput.relayTo(null);
    commandOutput.receive("s-relay", { ...output(""), done: true });
  });

  it("hands each update sent here to the relay, and keeps relayed ones for readers arriving late", () => {
    const sent: LiveCommandOutput[] = [];
    commandOutput.relayTo((_, update) => sent.push(update));
    commandOutput.append("s-local", { runId: "r", intentionId: "i", cycleId: "local-c" }, "hi\n");
    commandOutput.finish("local-c");
    expect(sent.map((update) => [update.text, update.done])).toEqual([
      ["hi\n", false],
      ["", true],
    ]);

    const heard: LiveCommandOutput[] = [];
    const stop = commandOutput.subscribe("s-relay", (update) => heard.push(update));
    commandOutput.receive("s-relay", output("from elsewhere\n"));
    stop();
    expect(heard.map((update) => update.text)).toEqual(["from elsewhere\n"]);
    expect(commandOutput.snapshot("s-relay").map((update) => update.text)).toEqual(["from elsewhere\n"]);
    // Relayed updates are not relayed again (only what this instance sends goes out).
    expect(sent).toHaveLength(2);
    // A command whose instance went silent for half an hour is dropped from the snapshot.
    expect(commandOutput.snapshot("s-relay", Date.now() + 31 * 60_000)).toEqual([]);
  });
});
