import { describe, expect, it } from "vitest";
import { validateJsonSchema } from "./json-schema-subset";

describe("validateJsonSchema (the subset the Agent Trace schema uses)", () => {
  it("reports type, required, extra-key, enum, pattern, bound, length and uri violations", () => {
    const schema = {
      type: "object",
      required: ["a", "b"],
      additionalProperties: false,
      properties: {
        a: { type: "integer", minimum: 1, maximum: 3 },
        b: { type: "string", enum: ["x", "y"], pattern: "^x$", maxLength: 1 },
        u: { type: "string", format: "uri" },
        l: { type: "array", items: { type: "string" } },
      },
    };
    expect(validateJsonSchema({ a: 2, b: "x", u: "https://e.x/p", l: ["s"] }, schema)).toEqual([]);
    expect(validateJsonSchema({ a: 0, b: "yy", c: 1, u: "no uri", l: [1] }, schema)).toEqual([
      "$.a: below 1",
      "$.b: not one of x,y",
      "$.b: does not match ^x$",
      "$.b: longer than 1",
      "$: unexpected c",
      "$.u: not a URI",
      "$.l[0]: not string",
    ]);
    expect(validateJsonSchema({ a: 1.5 }, schema)).toEqual(["$: missing b", "$.a: not integer"]);
  });

  it("refuses a keyword it does not implement instead of passing everything", () => {
    expect(() => validateJsonSchema({}, { oneOf: [] })).toThrow(/unsupported keyword oneOf/);
  });
});
