import "server-only";
import { execFile } from "node:child_process";
import path from "node:path";
import { promisify } from "node:util";
import { type ParseError, parse, printParseErrorCode } from "jsonc-parser";

const run = promisify(execFile);

/** Where a project keeps its own sandbox image: Arbor's own file first, then a dev container's. */
export const ARBOR_DOCKERFILE = ".arbor/Dockerfile";
export const DEVCONTAINER_JSON = ".devcontainer/devcontainer.json";

/** A project's Dockerfile as found on one commit of its bare repository. */
export interface ProjectDockerfile {
  /** The commit it was read from (the default branch's tip). */
  commit: string;
  /** The Dockerfile's path in the repository, e.g. `.arbor/Dockerfile`. */
  dockerfile: string;
  /** The build context's folder in the repository ("" is the repository's root). */
  contextDir: string;
  /** The Dockerfile's path inside the context. */
  dockerfileInContext: string;
  /** Git's tree id of the context: changes exactly when a file in the context changes. */
  contextTree: string;
}

/** A Dockerfile setting that cannot be built, with why (shown on the project page). */
export class ProjectDockerfileError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "ProjectDockerfileError";
  }
}

const SAFE_GIT = ["-c", "protocol.ext.allow=never", "-c", "core.hooksPath=/dev/null"];

async function git(repoPath: string, args: string[]): Promise<string> {
  const { stdout } = await run("git", [...SAFE_GIT, "-C", repoPath, ...args], {
    timeout: 30_000,
    maxBuffer: 4 * 1024 * 1024,
  });
  return stdout;
}

async function exists(repoPath: string, object: string): Promise<boolean> {
  return git(repoPath, ["cat-file", "-e", object]).then(
    () => true,
    () => false,
  );
}

/** The tip of the bare repository's default branch (HEAD): only what a person merged there is built. */
export async function defaultBranchCommit(repoPath: string): Promise<string | null> {
  return git(repoPath, ["rev-parse", "--verify", "--quiet", "HEAD^{commit}"]).then(
    (out) => out.trim() || null,
    () => null,
  );
}

/** `a/./b/../c` → `a/c`; null when it leaves the repository. "" is the root. */
function insideRepo(...parts: string[]): string | null {
  const joined = path.posix.normalize(path.posix.join(...parts));
  if (joined === "." || joined === "./") return "";
  if (joined.startsWith("../") || joined === ".." || path.posix.isAbsolute(joined)) return null;
  return joined.replace(/\/$/, "");
}

/**
 * The project's Dockerfile on its default branch, or null when it has none. `.arbor/Dockerfile` builds
 * with `.arbor/` as its context; otherwise `.devcontainer/devcontainer.json`'s `build.dockerfile` and
 * `build.context` (both relative to `.devcontainer/`, context "." by default) are used. A devcontainer
 * that names an `image` instead of a Dockerfile is not built.
 */
export async function findProjectDockerfile(repoPath: string): Promise<ProjectDockerfile | null> {
  const commit = await defaultBranchCommit(repoPath);
  if (!commit) return null;
  let dockerfile: string;
  let contextDir: string;
  if (await exists(repoPath, `${commit}:${ARBOR_DOCKERFILE}`)) {
    dockerfile = ARBOR_DOCKERFILE;
    contextDir = ".arbor";
  } else if (await exists(repoPath, `${commit}:${DEVCONTAINER_JSON}`)) {
    const text = await git(repoPath, ["show", `${commit}:${DEVCONTAINER_JSON}`]);
    const build = readDevcontainerBuild(text);
    if (!build) return null;
    const file = insideRepo(".devcontainer", build.dockerfile);
    const context = insideRepo(".devcontainer", build.context);
    if (file === null || context === null || file === "")
      throw new ProjectDockerfileError(
        `${DEVCONTAINER_JSON}: build.dockerfile and build.context must stay inside the repository.`,
      );
    dockerfile = file;
    contextDir = context;
  } else {
    return null;
  }
  const inContext = contextDir === "" ? dockerfile : path.posix.relative(contextDir, dockerfile);
  if (inContext.startsWith("../"))
    throw new ProjectDockerfileError(
      `The Dockerfile ${dockerfile} is outside its build context ${contextDir || "."}: Arbor sends only the context to the engine.`,
    );
  if (!(await exists(repoPath, `${commit}:${dockerfile}`)))
    throw new ProjectDockerfileError(
      `${DEVCONTAINER_JSON} names ${dockerfile}, which is not on the default branch.`,
    );
  const contextTree = (await git(repoPath, ["rev-parse", `${commit}:${contextDir}`])).trim();
  return { commit, dockerfile, contextDir, dockerfileInContext: inContext, contextTree };
}

/** `build.dockerfile` and `build.context` of a devcontainer.json (JSON with comments), or null. */
export function readDevcontainerBuild(text: string): { dockerfile: string; context: string } | null {
  const errors: ParseError[] = [];
  const config = parse(text, errors, { allowTrailingComma: true }) as unknown;
  if (errors.length > 0) {
    const first = errors[0];
    throw new ProjectDockerfileError(
      `${DEVCONTAINER_JSON} is not valid JSON (${first ? `${printParseErrorCode(first.error)} at offset ${first.offset}` : "unreadable"}).`,
    );
  }
  if (typeof config !== "object" || config === null) return null;
  const build = (config as { build?: unknown; dockerFile?: unknown }).build;
  // `dockerFile` at the top level is the older spelling of build.dockerfile.
  const legacy = (config as { dockerFile?: unknown }).dockerFile;
  const record = typeof build === "object" && build !== null ? (build as Record<string, unknown>) : {};
  const dockerfile = typeof record.dockerfile === "string" ? record.dockerfile : legacy;
  if (typeof dockerfile !== "string" || dockerfile.trim() === "") return null;
  const context = typeof record.context === "string" ? record.context : ".";
  return { dockerfile, context };
}

/** The largest build context Arbor sends to the engine. */
export const MAX_CONTEXT_BYTES = 256 * 1024 * 1024;

/** The build context at that commit, as the tar the engine's build API takes (`git archive`). */
export async function readContextTar(repoPath: string, found: ProjectDockerfile): Promise<Buffer> {
  try {
    const { stdout } = await run(
      "git",
      [...SAFE_GIT, "-C", repoPath, "archive", "--format=tar", found.contextTree],
      { encoding: "buffer", maxBuffer: MAX_CONTEXT_BYTES, timeout: 120_000 },
    );
    return stdout;
  } catch (error) {
    const tooBig = (error as { code?: unknown }).code === "ERR_CHILD_PROCESS_STDIO_MAXBUFFER";
    throw new ProjectDockerfileError(
      tooBig
        ? `The build context ${found.contextDir || "."} is larger than ${MAX_CONTEXT_BYTES / 1024 / 1024} MB.`
        : `Could not read the build context ${found.contextDir || "."} from the repository.`,
    );
  }
}
