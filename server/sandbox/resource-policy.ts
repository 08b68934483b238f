import "server-only";
import { env } from "@/server/env";
import type { ResourcePolicy } from "./resources";

/** The server's sandbox defaults and caps, from the environment (a default over its cap is lowered to it). */
export function serverResourcePolicy(): ResourcePolicy {
  const caps = {
    cpus: env.ARBOR_SANDBOX_MAX_CPUS,
    memoryMb: env.ARBOR_SANDBOX_MAX_MEMORY_MB,
    pids: env.ARBOR_SANDBOX_MAX_PIDS,
    workspaceMb: env.ARBOR_WORKSPACE_MAX_MB,
  };
  return {
    caps,
    defaults: {
      cpus: Math.min(env.ARBOR_SANDBOX_CPUS, caps.cpus),
      memoryMb: Math.min(env.ARBOR_SANDBOX_MEMORY_MB, caps.memoryMb),
      pids: Math.min(env.ARBOR_SANDBOX_PIDS, caps.pids),
      workspaceMb: caps.workspaceMb,
    },
  };
}
