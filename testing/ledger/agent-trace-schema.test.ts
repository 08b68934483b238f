import { describe, expect, it } from "vitest";
import { validateJsonSchema } from "./agent-trace-schema";

describe("validateJsonSchema (ajv against the Agent Trace record schema)", () => {
  it("reports type, required, format and extra-key violations, each with its path", () => {
    const problems = validateJsonSchema({ version: 3, id: "not-a-uuid", files: "x", surprise: true });
    expect(problems.some((line) => line.startsWith("/version:"))).toBe(true);
    expect(problems.some((line) => line.startsWith("/id:") && /uuid/.test(line))).toBe(true);
    expect(problems.some((line) => line.startsWith("/files:"))).toBe(true);
    expect(problems.some((line) => /required property 'timestamp'/.test(line))).toBe(true);
  });

  it("accepts nothing that is not an object", () => {
    expect(validateJsonSchema("a record")).toEqual(["/: must be object"]);
  });
});
