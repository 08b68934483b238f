import {
  instructionFilesOf,
  MAX_INSTRUCTION_FILE_CHARS,
  type ProjectInstruction,
} from "@/server/domain/intent/project-instructions";
import { capEndCounted } from "@/server/domain/text/cap";
import { fsListSpec } from "@/server/domain/tools/fs-list";
import { fsReadSpec } from "@/server/domain/tools/fs-read";
import type { ToolDispatch } from "./dispatch";
import { toolData } from "./tool-data";

const MAX_FILES = 2_000;

/**
 * Intent discovery's read-only scan of the workspace, through the tools like every other look into
 * the sandbox: fs.list for the files (recursive, dependency folders not entered) and fs.read for the
 * package manifest and the project's instruction files (AGENTS.md / CLAUDE.md), all read from their
 * typed data. Throws when the workspace cannot be listed at
 * all, so discovery notes why.
 */
export async function listWorkspace(tools: Pick<ToolDispatch, "run">): Promise<WorkspaceListing> {
  const listed = await tools.run(
    { tool: "fs.list", input: { recursive: true, limit: MAX_FILES } },
    { activeIntent: null },
  );
  const listing = toolData(listed, fsListSpec);
  if (!listing) throw new Error(listed.error?.message ?? "the workspace could not be listed");
  const files = listing.entries.filter((entry) => entry.kind === "file").map((entry) => entry.path);
  const manifest = await tools.run(
    { tool: "fs.read", input: { path: "package.json" } },
    { activeIntent: null },
  );
  const packageJson = toolData(manifest, fsReadSpec)?.text ?? null;
  return { files, packageJson, instructions: await readInstructions(tools, files) };
}

export interface WorkspaceListing {
  files: string[];
  packageJson: string | null;
  instructions?: ProjectInstruction[];
}

/** Each directory's instruction file, read through fs.read; one that cannot be read is left out. */
async function readInstructions(
  tools: Pick<ToolDispatch, "run">,
  files: readonly string[],
): Promise<ProjectInstruction[]> {
  const read: ProjectInstruction[] = [];
  for (const path of instructionFilesOf(files)) {
    const result = await tools.run({ tool: "fs.read", input: { path } }, { activeIntent: null });
    const text = toolData(result, fsReadSpec)?.text;
    if (text !== undefined) read.push({ path, text: capEndCounted(text, MAX_INSTRUCTION_FILE_CHARS) });
  }
  return read;
}
