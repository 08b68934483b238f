import type { ToolDispatch } from "./dispatch";

const MAX_FILES = 2_000;

/**
 * Intent discovery's read-only scan of the workspace, through the tools like every other look into
 * the sandbox: fs.list for the files (recursive, dependency folders not entered) and fs.read for the
 * package manifest. Throws when the workspace cannot be listed at all, so discovery notes why.
 */
export async function listWorkspace(
  tools: Pick<ToolDispatch, "run">,
): Promise<{ files: string[]; packageJson: string | null }> {
  const listed = await tools.run(
    { tool: "fs.list", input: { recursive: true, limit: MAX_FILES } },
    { activeIntent: null },
  );
  if (listed.status !== "ok") throw new Error(listed.error?.message ?? "the workspace could not be listed");
  const files = listed.output
    .split("\n")
    .filter((line) => line.startsWith("f "))
    .map((line) => line.slice(2));
  const manifest = await tools.run(
    { tool: "fs.read", input: { path: "package.json" } },
    { activeIntent: null },
  );
  return { files, packageJson: manifest.status === "ok" ? withoutLineNumbers(manifest.output) : null };
}

/** fs.read's `     12\ttext` lines back to the file's text. */
export function withoutLineNumbers(numbered: string): string {
  return numbered
    .split("\n")
    .map((line) => line.replace(/^ *\d+\t/, ""))
    .join("\n");
}
