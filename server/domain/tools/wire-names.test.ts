import { describe, expect, it } from "vitest";
import { TOOL_NAMES } from "@/server/domain/tools/catalogue";
import { functionNameOf, toolNameOf } from "./wire-names";

describe("tool names for providers", () => {
  it("maps every registry tool to a valid, unique function name and back", () => {
    const names = TOOL_NAMES.map(functionNameOf);
    for (const name of names) expect(name).toMatch(/^[a-zA-Z0-9_-]{1,64}$/);
    expect(new Set(names).size).toBe(TOOL_NAMES.length);
    for (const tool of TOOL_NAMES) expect(toolNameOf(functionNameOf(tool))).toBe(tool);
  });

  it("maps fs.read to fs_read and select_active_intent to itself", () => {
    expect(functionNameOf("fs.read")).toBe("fs_read");
    expect(functionNameOf("git.commit")).toBe("git_commit");
    expect(functionNameOf("select_active_intent")).toBe("select_active_intent");
  });

  it("knows no tool for an unknown or dotted name", () => {
    expect(toolNameOf("fs.read")).toBeNull();
    expect(toolNameOf("run_command")).toBeNull();
    expect(toolNameOf("")).toBeNull();
  });
});
