import { z } from "zod";
import { CodebaseIntent } from "./codebase-intent";
import { PromptIntent } from "./prompt-intent";

/** The synthesis of what was asked (prompt), what is there (codebase) and what was learned before (memory). */
export const DiscoveredIntent = z.object({
  prompt: PromptIntent,
  codebase: CodebaseIntent.nullable(),
  memories: z.array(z.string().max(500)).max(20),
  /** Why the codebase part is missing, when it is (e.g. the sandbox could not start). */
  note: z.string().nullable(),
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
  if (intent.memories.length > 0)
    lines.push(`From earlier sessions:\n${intent.memories.map((memory) => `- ${memory}`).join("\n")}`);
  return lines.join("\n");
}
