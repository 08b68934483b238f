import { fsListSpec } from "@/server/domain/tools/fs-list";
import { fsReadSpec } from "@/server/domain/tools/fs-read";
import type { ToolDispatch } from "./dispatch";
import { toolData } from "./tool-data";

const MAX_FILES = 2_000;

/**
 * Intent discovery's read-only scan of the workspace, through the tools like every other look into
 * the sandbox: fs.list for the files (recursive, dependency folders not entered) and fs.read for the
 * package manifest, both read from their typed data. Throws when the workspace cannot be listed at
 * all, so discovery notes why.
 */
export async function listWorkspace(
  tools: Pick<ToolDispatch, "run">,
): Promise<{ files: string[]; packageJson: string | null }> {
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
  return { files, packageJson: toolData(manifest, fsReadSpec)?.text ?? null };
}
