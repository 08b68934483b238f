import { describe, expect, it } from "vitest";
import { InputQueue } from "./input-queue";

function deferred() {
  let resolve!: () => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<void>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

const tick = () => new Promise((resolve) => setTimeout(resolve, 0));

describe("InputQueue", () => {
  it("sends one piece at a time and batches what is typed meanwhile, in order", async () => {
    const sent: string[] = [];
    const gates: ReturnType<typeof deferred>[] = [];
    const queue = new InputQueue(
      (data) => {
        sent.push(data);
        const gate = deferred();
        gates.push(gate);
        return gate.promise;
      },
      () => undefined,
    );
    queue.push("l");
    queue.push("s");
    queue.push("\r");
    expect(sent).toEqual(["l"]);
    expect(queue.busy).toBe(true);
    gates[0]?.resolve();
    await tick();
    expect(sent).toEqual(["l", "s\r"]);
    gates[1]?.resolve();
    await tick();
    expect(queue.busy).toBe(false);
    expect(sent.join("")).toBe("ls\r");
  });

  it("splits a large paste into pieces the server accepts", async () => {
    const sent: string[] = [];
    const queue = new InputQueue(
      async (data) => {
        sent.push(data);
      },
      () => undefined,
      4,
    );
    queue.push("0123456789");
    await tick();
    await tick();
    await tick();
    expect(sent).toEqual(["0123", "4567", "89"]);
  });

  it("reports a failed send and drops what was queued behind it", async () => {
    const errors: unknown[] = [];
    const sent: string[] = [];
    const gate = deferred();
    const queue = new InputQueue(
      (data) => {
        sent.push(data);
        return sent.length === 1 ? gate.promise : Promise.resolve();
      },
      (error) => errors.push(error),
    );
    queue.push("rm -rf x");
    queue.push("\r");
    gate.reject(new Error("not open"));
    await tick();
    expect(errors).toHaveLength(1);
    expect(sent).toEqual(["rm -rf x"]);
    queue.push("ls\r");
    await tick();
    expect(sent).toEqual(["rm -rf x", "ls\r"]);
  });

  it("ignores empty input", () => {
    const sent: string[] = [];
    const queue = new InputQueue(
      async (data) => {
        sent.push(data);
      },
      () => undefined,
    );
    queue.push("");
    expect(sent).toEqual([]);
    expect(queue.busy).toBe(false);
  });
});
