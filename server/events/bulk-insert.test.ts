import { describe, expect, it } from "vitest";
import type { SqlTx } from "@/server/db-driver";
import { insertStatements } from "./bulk-insert";

/** A PostgreSQL statement runner that answers only the catalog read of the column types. */
function catalogOnly(types: Record<string, string>): SqlTx {
  return {
    provider: "postgres",
    execute: () => Promise.reject(new Error("nothing is executed here")),
    query: <Row extends Record<string, unknown>>() =>
      Promise.resolve(Object.entries(types).map(([column, type]) => ({ column, type })) as unknown as Row[]),
  };
}

describe("insertStatements on PostgreSQL", () => {
  it("sends each row's date as its own ISO instant, whether rows share one Date or not", async () => {
    const shared = new Date("2026-11-29T05:00:00.000Z");
    const other = new Date("2026-11-29T06:30:00.123Z");
    const tx = catalogOnly({ id: "text[]", startedAt: "timestamp(3) without time zone[]" });
    const [statement] = await insertStatements(tx, "Run", [
      { id: "a", startedAt: shared },
      { id: "b", startedAt: shared },
      { id: "c", startedAt: other },
      { id: "d", startedAt: shared },
    ]);
    expect(statement?.args).toEqual([
      '{"a","b","c","d"}',
      '{"2026-11-29T05:00:00.000Z","2026-11-29T05:00:00.000Z","2026-11-29T06:30:00.123Z","2026-11-29T05:00:00.000Z"}',
    ]);
  });

  it("quotes text with a newline element by element, dates among them", async () => {
    const at = new Date("2026-11-29T05:00:00.000Z");
    // Another table than above: each table's column types are read once per process.
    const tx = catalogOnly({ id: "text[]", text: "text[]", createdAt: "timestamp(3) without time zone[]" });
    const [statement] = await insertStatements(tx, "Message", [
      { id: "a", text: 'line one\nsaid "hi"', createdAt: at },
      { id: "b", text: null, createdAt: at },
    ]);
    expect(statement?.args).toEqual([
      '{"a","b"}',
      '{"line one\nsaid \\"hi\\"",NULL}',
      '{"2026-11-29T05:00:00.000Z","2026-11-29T05:00:00.000Z"}',
    ]);
  });
});
