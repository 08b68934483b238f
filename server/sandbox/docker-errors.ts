import "server-only";
import { SandboxError, type SandboxErrorCode, SandboxUnavailableError } from "./types";

/** Turns a Docker client error into a typed one with a message fit for a user (never a stack or a secret). */
export function toSandboxError(
  error: unknown,
  action: string,
  code: SandboxErrorCode,
  engineAddress: string,
): SandboxError {
  if (error instanceof SandboxError) return error;
  const netCode = (error as { code?: unknown })?.code;
  if (typeof netCode === "string" && CONNECTION_ERRORS.has(netCode)) {
    const hint =
      netCode === "EACCES"
        ? "permission denied on the socket (is the server's user allowed to use Docker?)"
        : "is dockerd running? (scripts/ensure-docker.sh starts it)";
    return new SandboxUnavailableError(
      `Docker engine is not reachable at ${engineAddress}: ${hint} [${netCode}]`,
      {
        cause: error,
      },
    );
  }
  if (statusOf(error) === 404)
    return new SandboxError("not_found", `Cannot ${action}: ${dockerMessage(error)}`);
  return new SandboxError(code, `Cannot ${action}: ${dockerMessage(error)}`, { cause: error });
}

const CONNECTION_ERRORS = new Set([
  "ENOENT",
  "ECONNREFUSED",
  "EACCES",
  "ETIMEDOUT",
  "EHOSTUNREACH",
  "ECONNRESET",
]);

export function statusOf(error: unknown): number | undefined {
  const status = (error as { statusCode?: unknown })?.statusCode;
  return typeof status === "number" ? status : undefined;
}

/** The engine's own message when there is one ("No such container: …"), else the error's. */
export function dockerMessage(error: unknown): string {
  const json = (error as { json?: { message?: unknown } })?.json;
  if (json && typeof json.message === "string") return json.message.trim();
  return error instanceof Error ? error.message : String(error);
}
