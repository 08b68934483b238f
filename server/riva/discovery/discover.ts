import { errorMessage } from "@/server/orchestrator/errors";
import { analyzeCodebase } from "./codebase-intent";
import type { DiscoveredIntent } from "./discovered-intent";
import { analyzePrompt } from "./prompt-intent";

/**
 * Seed 000's IntentDiscoverer: the prompt's intent, the workspace's (from a listing the caller
 * provides) and the project's memories, synthesised into one. A listing that cannot be made leaves
 * the codebase part empty with a note; discovery itself never fails a run.
 */
export async function discoverIntent(
  prompt: string,
  memories: readonly string[],
  listing: () => Promise<{ files: string[]; packageJson: string | null }>,
): Promise<DiscoveredIntent> {
  const promptIntent = analyzePrompt(prompt);
  try {
    const { files, packageJson } = await listing();
    const codebase = analyzeCodebase(files, packageJson, promptIntent.targets);
    return { prompt: promptIntent, codebase, memories: memories.slice(0, 20), note: null };
  } catch (error) {
    const note = `the workspace could not be listed (${errorMessage(error).slice(0, 200)})`;
    return { prompt: promptIntent, codebase: null, memories: memories.slice(0, 20), note };
  }
}
