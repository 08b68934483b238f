import { describe, expect, it } from "vitest";
import { z } from "zod";
import { fillsIn, VERBATIM_TYPES } from "./verbatim";

describe("fillsIn", () => {
  it("finds defaults, transforms and trimming at any depth, and passes plain shapes", () => {
    expect(fillsIn(z.object({ a: z.string().max(3), b: z.array(z.object({ c: z.number().int() })) }))).toBe(
      false,
    );
    expect(fillsIn(z.object({ a: z.object({ b: z.string().nullable().default(null) }) }))).toBe(true);
    expect(fillsIn(z.object({ a: z.array(z.string().trim()) }))).toBe(true);
    expect(fillsIn(z.object({ a: z.string().transform((s) => s.length) }))).toBe(true);
    expect(fillsIn(z.union([z.object({ a: z.literal(1) }), z.object({ b: z.number().optional() })]))).toBe(
      false,
    );
    expect(fillsIn(z.record(z.string(), z.unknown()))).toBe(false);
    expect(fillsIn(z.date())).toBe(true); // not a JSON value: never sent verbatim
    // String formats are strings; lower-casing overwrites like trimming does.
    expect(fillsIn(z.object({ a: z.email(), b: z.iso.datetime(), c: z.uuid().nullable() }))).toBe(false);
    expect(fillsIn(z.object({ a: z.string().toLowerCase() }))).toBe(true);
    expect(fillsIn(z.tuple([z.string()], z.number().default(0)))).toBe(true);
  });
});

describe("VERBATIM_TYPES", () => {
  it("sends plain events as stored and parses the ones whose schema fills something in", () => {
    for (const type of ["cycle-result", "cycle-judged", "intention-status-changed", "file-deleted"])
      expect(VERBATIM_TYPES.has(type)).toBe(true);
    // run-started: `reasoning` defaults to "off"; cycle-started: its action's defaults; terminal-closed: `by`.
    for (const type of ["run-started", "cycle-started", "terminal-closed", "approval-requested"])
      expect(VERBATIM_TYPES.has(type)).toBe(false);
  });
});
