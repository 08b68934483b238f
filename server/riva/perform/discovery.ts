import { errorMessage } from "@/server/domain/errors";
import { analyzeCodebase, type CodebaseIntent } from "@/server/domain/intent/codebase-intent";
import { type DiscoveredIntent, summarizeIntent } from "@/server/domain/intent/discovered-intent";
import { type ProjectInstruction, testCommandsIn } from "@/server/domain/intent/project-instructions";
import { analyzePrompt, type PromptIntent } from "@/server/domain/intent/prompt-intent";
import { defaultBranchInstructions } from "@/server/projects/git-repository";
import type { ToolDispatch } from "@/server/tools/dispatch";
import { listWorkspace } from "@/server/tools/workspace-listing";

/** The model's reading of the request, given what the listing found; null when the model failed. */
export type ModelReader = (repoSummary: string) => Promise<PromptIntent | null>;

/**
 * Seed 000's IntentDiscoverer: the prompt's intent, the workspace's (from a listing the caller
 * provides) and the project's memories, synthesised into one. The model reads the request when there
 * is one (it sees what the listing found); the heuristics read it offline or when the model fails.
 * A listing that cannot be made leaves the codebase part empty with a note; discovery itself never
 * fails a run.
 */
export async function discoverIntent(
  prompt: string,
  memories: readonly string[],
  listing: () => Promise<Listing>,
  readByModel?: ModelReader,
): Promise<DiscoveredIntent> {
  const heuristic = analyzePrompt(prompt);
  let scan: Listing | null = null;
  let note: string | null = null;
  try {
    scan = await listing();
  } catch (error) {
    note = `the workspace could not be listed (${errorMessage(error).slice(0, 200)})`;
  }
  const instructions = scan?.instructions ?? [];
  const codebaseFor = (targets: readonly string[]): CodebaseIntent | null =>
    scan
      ? withInstructedTests(analyzeCodebase(scan.files, scan.packageJson, [...targets]), instructions)
      : null;
  const heard: DiscoveredIntent = {
    prompt: heuristic,
    codebase: codebaseFor(heuristic.targets),
    memories: memories.slice(0, 20),
    note,
    ...(instructions.length > 0 ? { instructions } : {}),
  };
  if (!readByModel) return heard;
  const read = await readByModel(summarizeIntent(heard));
  if (!read) return heard;
  return { ...heard, prompt: read, codebase: codebaseFor(read.targets) };
}

type Listing = {
  files: string[];
  packageJson: string | null;
  instructions?: ProjectInstruction[];
};

/**
 * When the manifest names no test command, the first one the instructions name in a code block is
 * the project's test command: offered as the fallback check like a detected one (under the command
 * policy, counted only red → green).
 */
function withInstructedTests(codebase: CodebaseIntent, instructions: readonly ProjectInstruction[]) {
  if (codebase.testCommand) return codebase;
  const command = instructions.flatMap((file) => testCommandsIn(file.text))[0];
  if (!command) return codebase;
  const testFramework = /\bpytest\b/.test(command) ? "pytest" : codebase.testFramework;
  return { ...codebase, testCommand: command, testFramework };
}

/**
 * The workspace listing (through the tools, like every look into the sandbox) with the project's
 * instructions as the default branch has them, read from the bare repository on the server's disk:
 * the server trusts only that version (issue #21.1), so an AGENTS.md the session changed or added —
 * even with a person's approval — steers no run before it is merged, and deleting it in the session
 * does not silence it. When the repository cannot be read, none are sent.
 */
export async function listWithTrustedInstructions(
  tools: Pick<ToolDispatch, "run">,
  repoPath: () => Promise<string>,
): Promise<Listing> {
  const listing = await listWorkspace(tools);
  const instructions = await repoPath()
    .then(defaultBranchInstructions)
    .catch(() => []);
  return { ...listing, instructions };
}
