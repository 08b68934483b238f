import { z } from "zod";
import { isToolName, TOOL_NAMES, type ToolName, type ToolSpecs } from "@/server/domain/tools/catalogue";
import type { RiskClass } from "@/server/domain/tools/risk";
import { fsDelete } from "./fs-delete";
import { fsEdit } from "./fs-edit";
import { fsList } from "./fs-list";
import { fsRead } from "./fs-read";
import { fsSearch } from "./fs-search";
import { fsWrite } from "./fs-write";
import { gitAdd } from "./git-add";
import { gitBranch } from "./git-branch";
import { gitCheckout } from "./git-checkout";
import { gitCommit } from "./git-commit";
import { gitDiff } from "./git-diff";
import { gitLog } from "./git-log";
import { gitStatus } from "./git-status";
import { selectActiveIntent } from "./select-active-intent";
import { setupRun } from "./setup-run";
import { shellExec } from "./shell-exec";
import type { ToolDefinition } from "./types";

/**
 * The code that runs each tool of the catalogue (`server/domain/tools/catalogue.ts`), by name. Each
 * entry is built from its catalogue spec (`implementTool`), so its facts cannot differ; the type below
 * fails to compile when a tool of the catalogue has no implementation here, or one has a wrong spec.
 */
export const TOOLS = {
  "fs.read": fsRead,
  "fs.list": fsList,
  "fs.search": fsSearch,
  "fs.write": fsWrite,
  "fs.edit": fsEdit,
  "fs.delete": fsDelete,
  "git.status": gitStatus,
  "git.diff": gitDiff,
  "git.log": gitLog,
  "git.add": gitAdd,
  "git.commit": gitCommit,
  "git.branch": gitBranch,
  "git.checkout": gitCheckout,
  "shell.exec": shellExec,
  select_active_intent: selectActiveIntent,
  "setup.run": setupRun,
} as const satisfies { [Name in ToolName]: ToolDefinition<ToolSpecs[Name]> };

/** The tool of that name, or null: the dispatch answers an unknown name with an error result. */
export function toolNamed(name: string): ToolDefinition | null {
  return isToolName(name) ? (TOOLS[name] as unknown as ToolDefinition) : null;
}

/** For a model's tool list: each tool's name, risk, operating manual and input as JSON Schema. */
export function toolManuals(): {
  name: ToolName;
  risk: RiskClass;
  description: string;
  inputSchema: unknown;
}[] {
  return TOOL_NAMES.map((name) => TOOLS[name]).map((tool) => ({
    name: tool.name,
    risk: tool.risk,
    description: tool.description,
    inputSchema: z.toJSONSchema(tool.input as z.ZodType, { io: "input" }),
  }));
}
