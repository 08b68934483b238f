import { describe, expect, it } from "vitest";
import { type AttemptView, FAILURE_SUMMARY_LIMITS, summarizeFailures } from "./failure-summary";

function attempts(count: number, tier?: string, from = 1): AttemptView[] {
  return Array.from({ length: count }, (_, index) => ({
    id: `${tier ?? "t"}-${from + index}`,
    cycle: from + index,
    tier,
    thought: "try again",
    action: `npm test -- case${(from + index) % 3}`,
    result: `exit 1\n${"FAIL src/a.test.ts ".repeat(30)}\n3 failed, 10 passed`,
    judgment: index % 5 === 0 ? "UNCLEAR" : "FAILURE",
  }));
}

describe("summarizeFailures", () => {
  it("says so when there is nothing to summarize", () => {
    expect(summarizeFailures([])).toEqual({ text: "None: this is the first attempt.", dropped: [] });
  });

  it("shows the latest attempts one per line, with the head and tail of their output", () => {
    const { text } = summarizeFailures(attempts(3, "cheap"));
    const lines = text.split("\n");
    expect(lines[0]).toBe("Tier cheap:");
    expect(lines.slice(1).map((line) => line.slice(0, 3))).toEqual(["#1 ", "#2 ", "#3 "]);
    expect(lines[3]).toMatch(/^#3 FAILURE: npm test -- case0 → exit 1 FAIL .* … .*3 failed, 10 passed\.$/);
  });

  it("counts older attempts instead of listing them", () => {
    const { text, dropped } = summarizeFailures(attempts(50, "cheap"));
    expect(text.split("\n")[1]).toBe(
      "Earlier: 44 attempts not shown (35 FAILURE, 9 UNCLEAR); 3 distinct actions tried.",
    );
    expect(text).toContain("#50 ");
    expect(text).not.toContain("#44 ");
    expect(dropped.filter((item) => item.how === "omitted").map((item) => item.id)).toHaveLength(44);
    expect(dropped.filter((item) => item.how === "shortened").map((item) => item.id)).toEqual([
      "cheap-45",
      "cheap-46",
      "cheap-47",
      "cheap-48",
      "cheap-49",
      "cheap-50",
    ]);
  });

  it("caps one tier at 2000 characters and all tiers at 4000, the current tier first", () => {
    const long = { reflection: "x".repeat(5000) };
    const history = [
      ...attempts(20, "a", 1),
      ...attempts(20, "b", 21),
      ...attempts(20, "c", 41),
      ...attempts(20, "d", 61),
    ].map((attempt) => ({ ...attempt, ...long }));
    const { text, dropped } = summarizeFailures(history, {
      ...FAILURE_SUMMARY_LIMITS,
      attemptLineChars: 600,
    });
    expect(text.length).toBeLessThanOrEqual(4000);
    const blocks = text.split("\n\n");
    expect(blocks[0]?.startsWith("Tier d:")).toBe(true);
    expect(blocks[0]?.length).toBe(2000);
    expect(blocks.map((block) => block.split(":")[0])).toEqual(["Tier d", "Tier c"]);
    for (const tier of ["a-", "b-"]) {
      const omitted = dropped.filter((item) => item.id?.startsWith(tier));
      expect(omitted).toHaveLength(20);
      expect(omitted.every((item) => item.how === "omitted")).toBe(true);
    }
  });

  it("hashes each dropped attempt by its content", () => {
    const [one] = summarizeFailures(attempts(8)).dropped;
    const [same] = summarizeFailures(attempts(8)).dropped;
    expect(one?.sha256).toMatch(/^[0-9a-f]{64}$/);
    expect(one?.sha256).toBe(same?.sha256);
  });
});
