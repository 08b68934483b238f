import "server-only";
import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import type { SampleProject } from "@/server/domain/vocabulary/sample-projects";
import { createRepositoryWithFiles } from "./git-repository";

/** The sample's files as shipped in this repository (`samples/…`), relative path → content. */
export async function sampleFiles(
  sample: SampleProject,
  root = process.cwd(),
): Promise<Record<string, string>> {
  const folder = path.join(root, sample.folder);
  const entries = await readdir(folder, { recursive: true, withFileTypes: true });
  const files: Record<string, string> = {};
  for (const entry of entries.filter((candidate) => candidate.isFile())) {
    const full = path.join(entry.parentPath, entry.name);
    files[path.relative(folder, full).split(path.sep).join("/")] = await readFile(full, "utf8");
  }
  return files;
}

/** A fresh repository of the sample: one commit on `main`, as if a person had pushed it. */
export async function createSampleRepository(repoPath: string, sample: SampleProject): Promise<void> {
  await createRepositoryWithFiles(
    repoPath,
    await sampleFiles(sample),
    `${sample.name}: a failing test to fix`,
  );
}
