import type { z } from "zod";
import type { Stage } from "@/server/domain/vocabulary/stages";
import type { RiskClass, ToolCategory } from "./risk";

/**
 * Everything about a tool that is not its execution: its name and the name providers see, how
 * dangerous it is, what a pre-approval calls it, which stages offer it to the model, its operating
 * manual, the input it accepts and the data it returns next to its text. One spec file per tool in
 * this folder, listed in `catalogue.ts`; the code that runs it lives in `server/tools/<tool>.ts`.
 */
export interface ToolSpec<
  Name extends string = string,
  Input extends z.ZodType = z.ZodType,
  Data extends z.ZodType | undefined = z.ZodType | undefined,
> {
  name: Name;
  /** The function name providers see: dots are refused there (`fs.read` → `fs_read`). */
  wireName: string;
  /** Seed 004: `safe` runs without a click, `moderate` needs approval, `dangerous` a confirmation. */
  risk: RiskClass;
  /** What a user pre-approves for a run or a project ("writes pass without a click"). */
  category: ToolCategory;
  /** The stages whose model requests may call it; none: only the server calls it. */
  stages: readonly Stage[];
  /** Cannot change the workspace, the repository or the governance state; chat offers only these. */
  readOnly: boolean;
  /** An operating manual, written for the model: what it does, when to use it, what it returns. */
  description: string;
  input: Input;
  /** The typed result next to the text the model reads, for code that needs the facts (no parsing). */
  data: Data;
  /**
   * The workspace paths the call touches. The scope guard resolves each one inside the sandbox
   * (`..`, symlinks) before any gate; `writes` decides whether the owned scope applies.
   */
  paths(input: z.output<Input>): string[];
  /** True when the paths are written (checked against the intent's owned scope), false for reads. */
  writes: boolean;
  /**
   * True when the call acts on the directory entry itself, never on what a symbolic link points to
   * (fs.delete removes the link). The scope guard then resolves the parent directory and keeps the
   * last component as written: a link to outside /workspace can be deleted, its target is never
   * touched or judged.
   */
  actsOnEntry?: boolean;
  /**
   * Set on a project's MCP tool (`mcp.ts`), which is not in the static catalogue: its server, its own
   * name there, the project's setting for it (`off` is refused by the gate) and the JSON Schema its
   * server gave for the input (the model sees it; the server checks the input against it).
   */
  mcp?: { server: string; tool: string; setting: RiskClass | "off"; inputSchema: Record<string, unknown> };
}

/** Every stage that looks at the project. delivery_check is not one: it judges with its tools disabled. */
export const LOOKING_STAGES = [
  "warmup",
  "discover",
  "contract",
  "act",
  "micro_step",
  "verify",
  "decompose",
  "reflect",
  "qa_review",
] as const satisfies readonly Stage[];

/** The stages that change the project: act and the follow-up request after a tool result. */
export const CHANGING_STAGES = ["act", "micro_step"] as const satisfies readonly Stage[];

/** Providers allow `^[a-zA-Z0-9_-]{1,64}$` as a function name; tool names contain dots. */
export function wireNameOf(name: string): string {
  return name.replaceAll(".", "_");
}

/** A spec with its wire name filled in; keeps each spec's name, input and data types exact. */
export function defineToolSpec<
  const Name extends string,
  Input extends z.ZodType,
  Data extends z.ZodType | undefined = undefined,
>(
  spec: Omit<ToolSpec<Name, Input, Data>, "wireName" | "data"> & { data?: Data },
): ToolSpec<Name, Input, Data> {
  return { ...spec, wireName: wireNameOf(spec.name), data: spec.data as Data };
}
