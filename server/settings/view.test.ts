import { describe, expect, it } from "vitest";
import { resolveModelSettings } from "./layers";
import { resolvedRows } from "./view";

describe("the Model card's rows", () => {
  it("names the offline model when it is the one answering, not the unused default name", () => {
    const row = resolvedRows(resolveModelSettings({}), {}).find(
      (candidate) => candidate.field === "modelName",
    );
    expect(row?.value).toMatch(/^built-in offline model/);
    expect(row?.value).toContain('"gpt-4o-mini" applies once a base URL is set');
  });

  it("names the configured model when a server answers", () => {
    const resolved = resolveModelSettings({
      project: { baseUrl: "http://127.0.0.1:1/v1", modelName: "m-1" },
    });
    const row = resolvedRows(resolved, {}).find((candidate) => candidate.field === "modelName");
    expect(row?.value).toBe("m-1");
  });
});
