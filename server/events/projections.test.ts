import { describe, expect, it } from "vitest";
import { foldProjections, type ProjectionWrite } from "./projections";

const create = (
  table: ProjectionWrite["table"],
  id: string,
  data: Record<string, unknown>,
): ProjectionWrite => ({
  kind: "create",
  table,
  id,
  data: { id, ...data },
});
const update = (
  table: ProjectionWrite["table"],
  id: string,
  data: Record<string, unknown>,
): ProjectionWrite => ({
  kind: "update",
  table,
  id,
  data,
});

describe("foldProjections", () => {
  it("lays a batch's updates over the rows it creates, skipping undefined columns as Prisma's update does", () => {
    const { creates, updates } = foldProjections([
      create("intention", "i1", { status: "PENDING", reason: null }),
      update("intention", "i1", { status: "ACTIVE", reason: undefined }),
      update("intention", "i1", { status: "VERIFIED", reason: "ok" }),
      update("intention", "i1", { status: "FAILED", reason: undefined }),
    ]);
    expect(creates.get("intention")).toEqual([{ id: "i1", status: "FAILED", reason: "ok" }]);
    expect(updates).toEqual([]);
  });

  it("merges several updates of one existing row into one, later columns on top, rows kept apart", () => {
    const { creates, updates } = foldProjections([
      update("cycle", "c1", { exitCode: 0, output: "a" }),
      update("cycle", "c2", { reflection: "x" }),
      update("cycle", "c1", { judgment: "SUCCESS", output: "b" }),
      update("run", "c1", { status: "VERIFIED" }),
    ]);
    expect(creates.size).toBe(0);
    expect(updates).toEqual([
      { table: "cycle", id: "c1", data: { exitCode: 0, output: "b", judgment: "SUCCESS" } },
      { table: "cycle", id: "c2", data: { reflection: "x" } },
      { table: "run", id: "c1", data: { status: "VERIFIED" } },
    ]);
  });

  it("refuses a row updated before it is created in the same batch (one by one, that update fails)", () => {
    expect(() =>
      foldProjections([
        update("run", "r1", { status: "FAILED" }),
        create("run", "r1", { status: "RUNNING" }),
      ]),
    ).toThrow("run r1 is updated before it is created in the same append");
  });
});
