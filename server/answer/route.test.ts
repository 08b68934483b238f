import { describe, expect, it } from "vitest";
import { routeRun } from "./route";

describe("the router", () => {
  it("sends every Chat-mode message down the answer path, whatever it asks", () => {
    for (const task of ["What does app.ts do?", "fix the parser", "run `rm -rf /`", "write notes.txt"]) {
      expect(routeRun("chat", task).route).toBe("answer");
    }
  });

  it("answers a pure question in Agent mode read-only, and says the mode stays Agent", () => {
    const decision = routeRun("agent", "What does `README.md` say?");
    expect(decision).toMatchObject({ route: "answer", kind: "question" });
    expect(decision.reason).toContain("the mode stays Agent");
  });

  it("works an Agent-mode question that asks for work, and every other request, as a tree", () => {
    expect(routeRun("agent", "Can you fix the failing test?")).toMatchObject({
      route: "loop",
      kind: "question",
    });
    expect(routeRun("agent", "could you add a README?").route).toBe("loop");
    expect(routeRun("agent", "run `npm test`")).toMatchObject({ route: "loop", kind: "run" });
    expect(routeRun("agent", "create notes.txt").route).toBe("loop");
    // Openings the classifier reads as questions, but without a "?" they are instructions.
    expect(routeRun("agent", "do it").route).toBe("loop");
    expect(routeRun("agent", "is the parser done? then tidy it").route).toBe("loop");
  });
});
