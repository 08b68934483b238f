import { z } from "zod";

/**
 * A branch name git accepts and no option parser could mistake for a flag. The git tools build their
 * argv from fixed words and validated values only, so no input can smuggle in a flag.
 */
export const BranchName = z
  .string()
  .min(1)
  .max(200)
  .regex(/^[A-Za-z0-9._/-]+$/, "letters, digits, `.`, `_`, `/` and `-` only")
  .refine((name) => !name.startsWith("-"), "a branch name cannot start with -")
  .refine(
    (name) =>
      !name.includes("..") &&
      !name.includes("//") &&
      !name.endsWith("/") &&
      !name.endsWith(".") &&
      !name.endsWith(".lock") &&
      !name.startsWith("/") &&
      !name.split("/").some((part) => part.startsWith(".")),
    "not a valid git branch name",
  )
  .describe("A branch name, e.g. `feature/login`.");
