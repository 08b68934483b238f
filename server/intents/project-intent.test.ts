import { describe, expect, it } from "vitest";
import { parseIntentsFile, renderIntentsFile } from "@/server/tools/intents-file";
import { nextIntentId, ProjectIntent, ProjectIntentList, readList } from "./project-intent";
import { toIntentRecord } from "./store";

const valid = {
  intentId: "INT-001",
  name: "JWT Authentication Migration",
  status: "IN_PROGRESS",
  ownedScope: ["src/auth/**", "src/middleware/jwt.ts"],
  constraints: ["Must not use external auth providers"],
  acceptanceCriteria: ["Unit tests in tests/auth/ pass"],
};

function problems(input: unknown): string[] {
  const parsed = ProjectIntent.safeParse(input);
  return parsed.success ? [] : parsed.error.issues.map((issue) => issue.message);
}

describe("ProjectIntent validation", () => {
  it("accepts seed 003's example and fills defaults", () => {
    expect(problems(valid)).toEqual([]);
    const minimal = ProjectIntent.parse({ intentId: "INT-2", name: "x", ownedScope: ["docs/**"] });
    expect(minimal).toMatchObject({ status: "IN_PROGRESS", constraints: [], acceptanceCriteria: [] });
  });

  it.each([
    [{ ...valid, intentId: "int-001" }, "like INT-001"],
    [{ ...valid, intentId: "INT 1" }, "like INT-001"],
    [{ ...valid, name: "  " }, "Give the intent a name"],
    [{ ...valid, status: "ACTIVE" }, "Invalid option"],
    [{ ...valid, ownedScope: [] }, "at least one owned_scope glob"],
    [{ ...valid, ownedScope: ["../outside/**"] }, "not a glob inside the workspace"],
    [{ ...valid, ownedScope: ["/etc/**"] }, "not a glob inside the workspace"],
    [{ ...valid, ownedScope: ["!src/secret.ts"] }, "no `!` negation"],
    [{ ...valid, ownedScope: [""] }, "cannot be empty"],
    [{ ...valid, ownedScope: ["src/{a,b"] }, "unclosed bracket or brace"],
    [{ ...valid, ownedScope: ["src/[ab"] }, "unclosed bracket or brace"],
    [{ ...valid, constraints: [""] }, "constraint cannot be empty"],
  ])("refuses %j with a clear message", (input, message) => {
    expect(problems(input).join(" ")).toContain(message);
  });

  it("accepts globs written from /workspace or ./", () => {
    expect(problems({ ...valid, ownedScope: ["/workspace/src/**", "./docs/*.md"] })).toEqual([]);
  });

  it("refuses a list that uses an id twice, naming it", () => {
    const parsed = ProjectIntentList.safeParse([valid, { ...valid, name: "other" }]);
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues[0]?.message).toBe("INT-001 is used twice; each intent needs its own id.");
    expect(parsed.error?.issues[0]?.path).toEqual([1, "intentId"]);
  });

  it("suggests the next id of the INT series", () => {
    expect(nextIntentId([])).toBe("INT-001");
    expect(nextIntentId(["INT-001", "INT-009", "AUTH-3"])).toBe("INT-010");
  });

  it("reads stored lists defensively", () => {
    expect(readList('["a","b"]')).toEqual(["a", "b"]);
    expect(readList("not json")).toEqual([]);
    expect(readList('[1, "x"]')).toEqual([]);
  });
});

describe("active_intents.yaml: render ↔ parse", () => {
  it("reads back exactly what was written, tricky text included", () => {
    const intents = [
      toIntentRecord(ProjectIntent.parse(valid)),
      toIntentRecord(
        ProjectIntent.parse({
          intentId: "INT-002",
          name: "yes",
          status: "BLOCKED",
          ownedScope: ["docs/*.md", "a b/c.txt"],
          constraints: ["null", "1.0", "# not a comment", 'quote " and colon: here', "<tag> & more"],
          acceptanceCriteria: [],
        }),
      ),
    ];
    const text = renderIntentsFile(intents);
    expect(text.startsWith("# Written by Arbor")).toBe(true);
    expect(parseIntentsFile(text)).toEqual({ ok: true, intents });
  });

  it("renders seed 003's keys", () => {
    const text = renderIntentsFile([toIntentRecord(ProjectIntent.parse(valid))]);
    expect(text).toContain("active_intents:");
    expect(text).toContain('id: "INT-001"');
    expect(text).toContain("owned_scope:");
    expect(text).toContain('- "src/auth/**"');
    expect(text).toContain("acceptance_criteria:");
  });

  it("an empty list is still a valid file with no intents", () => {
    expect(parseIntentsFile(renderIntentsFile([]))).toEqual({ ok: true, intents: [] });
  });
});
