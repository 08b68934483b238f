import "server-only";
import { Readable } from "node:stream";
import type Docker from "dockerode";

/** The build argument that names the server's own sandbox image: `ARG ARBOR_BASE` + `FROM ${ARBOR_BASE}`. */
export const BASE_BUILD_ARG = "ARBOR_BASE";
/** How much of a build's output is kept (the tail: where a failure is). */
export const MAX_BUILD_LOG_CHARS = 200_000;
export const BUILD_TIMEOUT_MS = 15 * 60_000;

/** A build that did not produce an image: a message for the project page, and the output so far. */
export class ProjectImageBuildError extends Error {
  constructor(
    message: string,
    readonly log: string,
  ) {
    super(message);
    this.name = "ProjectImageBuildError";
  }
}

/** Keeps the tail of a growing log within MAX_BUILD_LOG_CHARS. */
export function appendCapped(log: string, more: string): string {
  const next = log + more;
  if (next.length <= MAX_BUILD_LOG_CHARS) return next;
  return `[… earlier output cut …]\n${next.slice(next.length - MAX_BUILD_LOG_CHARS + 30)}`;
}

/** Messages the engine gives when a FROM image is neither here nor pullable (no registry from these machines). */
const UNPULLABLE =
  /pull access denied|repository does not exist|manifest unknown|failed to resolve reference|not found: manifest|no such host|dial tcp|registry-1\.docker\.io|TLS handshake timeout|i\/o timeout/i;

/** Explains an engine error in a project's terms. */
export function describeBuildFailure(error: string, baseImage: string): string {
  if (UNPULLABLE.test(error))
    return `The Dockerfile's base image cannot be pulled here (${error.trim()}). Start it from Arbor's sandbox image: \`ARG ${BASE_BUILD_ARG}\` then \`FROM \${${BASE_BUILD_ARG}}\` (the server sets it to ${baseImage}).`;
  return `The project's image did not build: ${error.trim()}`;
}

/**
 * Builds a tar'd context with the engine's build API (dockerode), handing each line of output to
 * `onLog` as it comes. Its RUN steps get `networkMode` (build-network.ts: the setup phase's egress
 * policy; the engine's default bridge when absent) and the proxy's build arguments.
 */
export async function buildImage(options: {
  docker: Docker;
  context: Buffer;
  dockerfile: string;
  tag: string;
  baseImage: string;
  labels: Record<string, string>;
  onLog: (text: string) => void;
  networkMode?: string;
  buildArgs?: Record<string, string>;
}): Promise<void> {
  const { docker, onLog } = options;
  let log = "";
  const note = (text: string) => {
    log = appendCapped(log, text);
    onLog(text);
  };
  let stream: NodeJS.ReadableStream;
  try {
    stream = await docker.buildImage(Readable.from([options.context]), {
      t: options.tag,
      dockerfile: options.dockerfile,
      buildargs: { ...options.buildArgs, [BASE_BUILD_ARG]: options.baseImage },
      ...(options.networkMode ? { networkmode: options.networkMode } : {}),
      labels: options.labels,
      rm: true,
      forcerm: true,
    });
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    note(`${message}\n`);
    throw new ProjectImageBuildError(describeBuildFailure(message, options.baseImage), log);
  }
  const failure = await new Promise<string | null>((resolve) => {
    const timer = setTimeout(() => {
      (stream as unknown as { destroy?: () => void }).destroy?.();
      resolve(`the build took longer than ${BUILD_TIMEOUT_MS / 60_000} minutes`);
    }, BUILD_TIMEOUT_MS);
    let failed: string | null = null;
    docker.modem.followProgress(
      stream,
      (error: Error | null) => {
        clearTimeout(timer);
        resolve(error ? error.message : failed);
      },
      (event: { stream?: string; status?: string; error?: string; errorDetail?: { message?: string } }) => {
        // The engine colours a RUN step's stderr character by character: the page shows plain text.
        if (typeof event.stream === "string") note(stripAnsi(event.stream));
        else if (typeof event.status === "string") note(`${event.status}\n`);
        if (event.error || event.errorDetail) {
          failed = event.errorDetail?.message ?? event.error ?? "the build failed";
          note(`ERROR: ${failed}\n`);
        }
      },
    );
  });
  if (failure !== null)
    throw new ProjectImageBuildError(describeBuildFailure(failure, options.baseImage), log);
}

/** Drops terminal colour codes (ESC [ … m). */
export function stripAnsi(text: string): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: the escape character is what is removed.
  return text.replace(/\u001b\[[0-9;]*m/g, "");
}
