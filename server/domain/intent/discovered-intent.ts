import { z } from "zod";
import { CodebaseIntent } from "./codebase-intent";
import {
  INSTRUCTIONS_CHARS,
  instructionsText,
  MAX_INSTRUCTION_FILES,
  ProjectInstruction,
} from "./project-instructions";
import { PromptIntent } from "./prompt-intent";

/** The synthesis of what was asked (prompt), what is there (codebase) and what was learned before (memory). */
export const DiscoveredIntent = z.object({
  prompt: PromptIntent,
  codebase: CodebaseIntent.nullable(),
  memories: z.array(z.string().max(500)).max(20),
  /** Why the codebase part is missing, when it is (e.g. the sandbox could not start). */
  note: z.string().nullable(),
  /**
   * The project's AGENTS.md / CLAUDE.md files as discovery read them (issue #21.1), root first.
   * Absent in runs discovered before instructions were read.
   */
  instructions: z.array(ProjectInstruction).max(MAX_INSTRUCTION_FILES).optional(),
});
export type DiscoveredIntent = z.infer<typeof DiscoveredIntent>;

/** The repository summary the planning prompt receives: short, factual, and the same on every call. */
export function summarizeIntent(intent: DiscoveredIntent): string {
  const lines: string[] = [`Request kind: ${intent.prompt.kind}.`];
  if (intent.prompt.targets.length > 0) lines.push(`Named targets: ${intent.prompt.targets.join(", ")}.`);
  if (intent.prompt.constraints.length > 0)
    lines.push(`Constraints: ${intent.prompt.constraints.join("; ")}.`);
  const code = intent.codebase;
  if (code) {
    lines.push(
      `${code.fileCount} tracked files${code.languages.length ? `, mostly ${code.languages.join(", ")}` : ""}.`,
    );
    if (code.testCommand)
      lines.push(`Tests: ${code.testFramework ?? "?"} — run with \`${code.testCommand}\`.`);
    if (code.conventions.length > 0) lines.push(`Conventions: ${code.conventions.join("; ")}.`);
    if (code.relatedFiles.length > 0) lines.push(`Related files: ${code.relatedFiles.join(", ")}.`);
  } else if (intent.note) {
    lines.push(`Codebase not scanned: ${intent.note}.`);
  }
  const instructions = projectInstructionsOf(intent);
  if (instructions !== "")
    lines.push(`Project instructions (the project's own agent rules):\n${instructions}`);
  if (intent.memories.length > 0)
    lines.push(`From earlier sessions:\n${intent.memories.map((memory) => `- ${memory}`).join("\n")}`);
  return lines.join("\n");
}

/** The instructions' text within the request budget (empty when the project has none). */
export function projectInstructionsOf(intent: DiscoveredIntent | null | undefined): string {
  return instructionsText(intent?.instructions ?? [], INSTRUCTIONS_CHARS).text;
}
