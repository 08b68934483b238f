import { z } from "zod";
import type { ToolName } from "@/server/domain/tools/catalogue";

/**
 * The part of a tool's input the approval gate judges: the paths it touches or the command it runs.
 * Tool input schemas live with the tools; these only name the fields the gate relies on, so a tool
 * whose input lacks them fails here, and the gate denies, instead of passing unchecked.
 */
export type ToolSubject =
  | { kind: "paths"; paths: string[] }
  | { kind: "command"; command: string }
  | { kind: "none" };

const Path = z.object({ path: z.string() });
const OptionalPath = z.object({ path: z.string().optional() });
const Paths = z.object({ paths: z.array(z.string()).min(1) });
const Command = z.object({ command: z.string() });

const SUBJECTS: Record<ToolName, (input: unknown) => ToolSubject | null> = {
  "fs.read": (input) => paths(Path, input),
  "fs.list": (input) => optionalPath(input),
  "fs.search": (input) => optionalPath(input),
  "fs.write": (input) => paths(Path, input),
  "fs.edit": (input) => paths(Path, input),
  "fs.delete": (input) => paths(Path, input),
  "git.status": () => ({ kind: "none" }),
  "git.diff": () => ({ kind: "none" }),
  "git.log": () => ({ kind: "none" }),
  "git.add": (input) => {
    const parsed = Paths.safeParse(input);
    return parsed.success ? { kind: "paths", paths: parsed.data.paths } : null;
  },
  "git.commit": () => ({ kind: "none" }),
  "git.branch": () => ({ kind: "none" }),
  "git.checkout": () => ({ kind: "none" }),
  "shell.exec": (input) => {
    const parsed = Command.safeParse(input);
    return parsed.success ? { kind: "command", command: parsed.data.command } : null;
  },
  select_active_intent: () => ({ kind: "none" }),
  // Judged by the early rule in decide.ts (always a person), never by the shell rules.
  "setup.run": () => ({ kind: "none" }),
};

function paths(schema: typeof Path, input: unknown): ToolSubject | null {
  const parsed = schema.safeParse(input);
  return parsed.success ? { kind: "paths", paths: [parsed.data.path] } : null;
}

function optionalPath(input: unknown): ToolSubject | null {
  const parsed = OptionalPath.safeParse(input);
  if (!parsed.success) return null;
  return parsed.data.path === undefined ? { kind: "none" } : { kind: "paths", paths: [parsed.data.path] };
}

/** The subject of a known tool's input, or null when the input lacks the fields the gate needs. */
export function subjectOf(tool: ToolName, input: unknown): ToolSubject | null {
  return SUBJECTS[tool](input);
}
