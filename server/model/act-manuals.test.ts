import { describe, expect, it } from "vitest";
import { TOOL_NAMES, type ToolName } from "@/server/domain/tools/catalogue";
import { functionNameOf } from "@/server/domain/tools/wire-names";
import { toolManuals } from "@/server/tools/registry";
import { actToolNames } from "./act-turn";

/**
 * The act step's tool manuals may only send the model to tools it can call there: a manual that names
 * a tool that is not offered makes the model fail its turn.
 */

/** The registry tools a text names, by registry name (`fs.edit`) or function name (`fs_edit`). */
function toolsNamedIn(text: string): ToolName[] {
  return TOOL_NAMES.filter((name) =>
    [name, functionNameOf(name)].some((spelling) =>
      new RegExp(`(^|[^\\w.])${spelling.replaceAll(".", "\\.")}(?![\\w])`).test(text),
    ),
  );
}

describe("the act step's tool manuals", () => {
  const offered = new Set<ToolName>(actToolNames());
  const manuals = toolManuals().filter((manual) => offered.has(manual.name));

  it("covers every tool the act step offers", () => {
    expect(manuals.map((manual) => manual.name).sort()).toEqual([...offered].sort());
    // #15.6: the act step offers select_active_intent; the intent it selects binds the run's writes.
    expect(offered.has("select_active_intent")).toBe(true);
  });

  it.each(manuals.map((manual) => [manual.name, manual.description] as const))(
    "%s names only tools the act step offers",
    (_name, description) => {
      const strangers = toolsNamedIn(description).filter((name) => !offered.has(name));
      expect(strangers).toEqual([]);
    },
  );

  it("finds a tool named in a manual, in either spelling, and not inside another word", () => {
    expect(toolsNamedIn("call select_active_intent first")).toEqual(["select_active_intent"]);
    expect(toolsNamedIn("use fs.edit or git_commit")).toEqual(["fs.edit", "git.commit"]);
    expect(toolsNamedIn("fs.reader and my_fs.read_x")).toEqual([]);
  });
});
