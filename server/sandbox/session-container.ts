import "server-only";
import type Docker from "dockerode";
import type { SandboxRuntime } from "@/server/domain/vocabulary/sandbox-runtime";
import { LABEL_MANAGED, type SandboxLimits } from "./container-spec";
import { statusOf } from "./docker-errors";
import { SandboxError } from "./types";

/** A session's existing container, as the provider re-attaches to it. */
export interface FoundContainer {
  id: string;
  /** Its limits as the engine reports them (undefined: not all set). */
  limits: SandboxLimits | undefined;
  image: string;
  runtime: SandboxRuntime;
}

/**
 * The session's container by name, started again if it was stopped, or null when there is none. A
 * container of that name that Arbor does not manage is an error, never adopted.
 */
export async function findSessionContainer(
  docker: Docker,
  name: string,
  hooks: {
    /** Drops the container's persistent shell (a stopped container's shell is gone). */
    forget(containerId: string): void;
    wrap(error: unknown, action: string): SandboxError;
  },
): Promise<FoundContainer | null> {
  let info: Docker.ContainerInspectInfo;
  try {
    info = await docker.getContainer(name).inspect();
  } catch (error) {
    if (statusOf(error) === 404) return null;
    throw hooks.wrap(error, "look up the sandbox");
  }
  if (info.Config.Labels?.[LABEL_MANAGED] !== "true") {
    throw new SandboxError("create_failed", `A container named ${name} exists but is not managed by Arbor.`);
  }
  if (!info.State.Running) {
    hooks.forget(info.Id);
    try {
      await docker.getContainer(info.Id).start();
    } catch (error) {
      // 304: it was started in the meantime.
      if (statusOf(error) !== 304) throw hooks.wrap(error, "restart the sandbox");
    }
  }
  const host = info.HostConfig;
  const limits =
    host.Memory && host.NanoCpus && host.PidsLimit
      ? { memoryBytes: host.Memory, nanoCpus: host.NanoCpus, pidsLimit: host.PidsLimit }
      : undefined;
  return {
    id: info.Id,
    limits,
    image: info.Config.Image,
    runtime: info.HostConfig.Runtime === "runsc" ? "runsc" : "runc",
  };
}
