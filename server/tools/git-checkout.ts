import { gitCheckoutSpec } from "@/server/domain/tools/git-checkout";
import { runGit } from "./git-run";
import { implementTool } from "./types";

export const gitCheckout = implementTool(gitCheckoutSpec, {
  execute: (input, runtime) =>
    runGit(
      runtime,
      `git switch --no-guess ${input.create ? "-c " : ""}${input.branch} 2>&1 && git rev-parse --abbrev-ref HEAD`,
      "git checkout",
    ),
});
