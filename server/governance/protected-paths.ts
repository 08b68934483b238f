import picomatch from "picomatch";
import { resolveWorkspacePath } from "@/server/domain/text/workspace-path";

/**
 * Paths that always need a person's approval, even inside an intent's owned scope and even before they
 * exist: files that make code run without anyone asking for it (git hooks, package lifecycle scripts,
 * CI workflows, direnv), that hold secrets (.env), that tell later runs' agent what to do (AGENTS.md,
 * CLAUDE.md), or that are the governance record itself.
 *
 * Makefile is deliberately NOT here: `make` runs only when someone runs it, and its recipes are as
 * visible in review as the code under test they usually run. Protection is for what runs implicitly.
 */
const PROTECTED: ReadonlyArray<{ glob: string; reason: string }> = [
  { glob: "**/.git", reason: "git internals (a .git file can redirect the repository)" },
  { glob: "**/.git/**", reason: "git internals, including hooks that run on every commit" },
  { glob: ".orchestration/**", reason: "the governance record (intents, trace ledger)" },
  { glob: "**/package.json", reason: "package scripts run automatically on install and test" },
  { glob: "**/.npmrc", reason: "npm configuration can run scripts and redirect registries" },
  { glob: "**/.yarnrc", reason: "yarn configuration can change what installs run" },
  { glob: "**/.yarnrc.yml", reason: "yarn configuration can change what installs run" },
  { glob: "**/.pnpmfile.cjs", reason: "pnpm runs this file on every install" },
  { glob: "**/.husky/**", reason: "git hooks managed by husky" },
  { glob: "**/.githooks/**", reason: "git hooks" },
  { glob: "**/hooks/**/*.sh", reason: "shell scripts in a hooks directory" },
  { glob: "**/.github/workflows/**", reason: "CI workflows run with repository secrets" },
  { glob: "**/.envrc", reason: "direnv runs this file on entering the directory" },
  { glob: "**/.env*", reason: "environment files hold secrets" },
  // The project's sandbox image: what every later session runs in (server/sandbox/project-image/).
  { glob: ".arbor", reason: "the project's sandbox image settings" },
  {
    glob: ".arbor/**",
    reason:
      "the project's sandbox image (.arbor/Dockerfile) and its settings and setup command (.arbor/config.yaml) for every later session",
  },
  { glob: ".devcontainer", reason: "the project's dev container settings" },
  { glob: ".devcontainer/**", reason: "the dev container's Dockerfile, the sandbox image of later sessions" },
  // The project's agent instructions (issue #21.1): what every later request is told.
  { glob: "**/AGENTS.md", reason: "the project's agent instructions, sent with every later model request" },
  { glob: "**/CLAUDE.md", reason: "the project's agent instructions, sent with every later model request" },
];

/**
 * Folders whose files set what later sessions run in. A command that names them anywhere (`cp x
 * .arbor/Dockerfile`, `cd .devcontainer`) always asks, whatever the project's command setting: the
 * shell's own analysis sees redirections, not what each program writes.
 */
const IMAGE_FOLDERS = [".arbor", ".devcontainer"];

/** The image folder a command's word points into (lexically, after normalising), or null. */
export function imageFolderNamedBy(word: string): string | null {
  const normalised = word.replace(/^\/workspace\//, "").replace(/^(\.\/)+/, "");
  for (const folder of IMAGE_FOLDERS) {
    const at = normalised.indexOf(folder);
    if (at === -1) continue;
    const before = normalised[at - 1];
    const after = normalised[at + folder.length];
    const startsSegment = at === 0 || before === "/" || before === "=" || before === ":";
    const endsSegment = after === undefined || after === "/";
    if (startsSegment && endsSegment) return folder;
  }
  return null;
}

// Lower-cased on both sides: on a case-insensitive filesystem `.GIT/hooks` is `.git/hooks`.
const matchers = PROTECTED.map(({ glob, reason }) => ({
  matches: picomatch(glob.toLowerCase(), { dot: true, nonegate: true }),
  reason,
}));

/**
 * Why a path (relative to /workspace, or absolute inside it) is protected, or null. Purely lexical, so
 * it works for files that do not exist yet; check the real path as well when symlinks are involved. A
 * path that does not normalise to somewhere in the workspace counts as protected: fail closed.
 */
export function protectionOf(path: string): string | null {
  const resolved = resolveWorkspacePath(path);
  if (!resolved.ok) return `not a workspace path: ${resolved.reason}`;
  const relative = resolved.relative.toLowerCase();
  return matchers.find(({ matches }) => matches(relative))?.reason ?? null;
}

export function isProtectedPath(path: string): boolean {
  return protectionOf(path) !== null;
}
