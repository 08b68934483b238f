import { z } from "zod";

/**
 * The sample projects a new account can create in one click (issue #17.3): small repositories shipped
 * in this repo under `samples/`, each with a failing test, no dependencies, and a first task in the
 * built-in offline model's syntax that ends VERIFIED red → green.
 */
export const SAMPLE_PROJECT_IDS = ["node-sum"] as const;
export const SampleProjectId = z.enum(SAMPLE_PROJECT_IDS);
export type SampleProjectId = z.infer<typeof SampleProjectId>;

export interface SampleProject {
  name: string;
  /** The folder under the repository's root whose files become the project's first commit. */
  folder: string;
  /** The suggested first task, in the offline model's syntax (commands and files in backticks). */
  task: string;
  about: string;
}

export const SAMPLE_PROJECTS: Record<SampleProjectId, SampleProject> = {
  "node-sum": {
    name: "Sample: node-sum",
    folder: "samples/node-sum",
    task: "replace `a - b` with `a + b` in `sum.js`",
    about: "A tiny Node.js project whose one test fails (node:test, no dependencies).",
  },
};
