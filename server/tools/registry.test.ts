import { describe, expect, it } from "vitest";
import { TOOL_NAMES, TOOL_SPECS, type ToolName } from "@/server/domain/tools/catalogue";
import { TOOLS, toolManuals, toolNamed } from "./registry";

describe("the tool registry", () => {
  it("has exactly one tool per name of the approval gate's vocabulary, with the catalogue's class", () => {
    expect(Object.keys(TOOLS).sort()).toEqual([...TOOL_NAMES].sort());
    for (const name of TOOL_NAMES) {
      expect(TOOLS[name].name).toBe(name);
      expect(TOOLS[name].risk).toBe(TOOL_SPECS[name].risk);
    }
  });

  it("has an executor for every spec and a spec for every executor, built from that spec", () => {
    expect(Object.keys(TOOLS).sort()).toEqual([...TOOL_NAMES].sort());
    for (const name of TOOL_NAMES) {
      const { execute, inspect, ...facts } = TOOLS[name] as (typeof TOOLS)[ToolName] & {
        inspect?: unknown;
      };
      expect(typeof execute).toBe("function");
      expect(inspect === undefined || typeof inspect === "function").toBe(true);
      expect(facts).toEqual(TOOL_SPECS[name]);
      expect(TOOLS[name].input).toBe(TOOL_SPECS[name].input);
    }
  });

  it("offers the model every tool's input as a closed JSON Schema", () => {
    const manuals = toolManuals();
    expect(manuals.map((manual) => manual.name).sort()).toEqual([...TOOL_NAMES].sort());
    const write = manuals.find((manual) => manual.name === "fs.write")?.inputSchema as Record<
      string,
      unknown
    >;
    expect(write).toMatchObject({
      type: "object",
      required: ["path", "content"],
      additionalProperties: false,
    });
    const edit = manuals.find((manual) => manual.name === "fs.edit")?.inputSchema as { required: string[] };
    // Defaults are optional for the model to send.
    expect(edit.required).toEqual(["path", "search", "replace"]);
  });

  it("knows no other tool", () => {
    expect(toolNamed("git.push")).toBeNull();
    expect(toolNamed("constructor")).toBeNull();
    expect(toolNamed("fs.read")?.name).toBe("fs.read");
  });
});
