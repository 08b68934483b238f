import "server-only";
import type { SandboxResources } from "@/server/domain/events/bodies/sandbox";
import { ProjectResources } from "@/server/domain/vocabulary/sandbox-resources";
import type { SandboxLimits } from "./container-spec";

/**
 * A project's sandbox resources: CPU, memory, pids and the /workspace size, each within the server's
 * caps (ARBOR_SANDBOX_MAX_* in server/env.ts). Stored on the project as JSON; a field left out takes
 * the server's default. Pure: the caps are passed in. The schema people write is the domain's
 * `ProjectResources`.
 */

/** The server's defaults and caps (one of each per field). */
export interface ResourcePolicy {
  defaults: { cpus: number; memoryMb: number; pids: number; workspaceMb: number };
  caps: { cpus: number; memoryMb: number; pids: number; workspaceMb: number };
}

const LABELS: Record<keyof ResourcePolicy["caps"], { name: string; unit: string; env: string }> = {
  cpus: { name: "CPUs", unit: "", env: "ARBOR_SANDBOX_MAX_CPUS" },
  memoryMb: { name: "Memory", unit: " MB", env: "ARBOR_SANDBOX_MAX_MEMORY_MB" },
  pids: { name: "Processes", unit: "", env: "ARBOR_SANDBOX_MAX_PIDS" },
  workspaceMb: { name: "Workspace size", unit: " MB", env: "ARBOR_WORKSPACE_MAX_MB" },
};

/** Every value over its server cap, in words (empty: all fit). */
export function resourceProblems(resources: ProjectResources, policy: ResourcePolicy): string[] {
  const problems: string[] = [];
  for (const key of Object.keys(LABELS) as (keyof ResourcePolicy["caps"])[]) {
    const value = resources[key];
    const cap = policy.caps[key];
    const label = LABELS[key];
    if (value !== undefined && value > cap)
      problems.push(
        `${label.name} ${value}${label.unit} is over this server's cap of ${cap}${label.unit} (${label.env}).`,
      );
  }
  return problems;
}

/** A project's stored JSON, read leniently: anything unreadable counts as "server defaults". */
export function readProjectResources(json: string | null | undefined): ProjectResources {
  try {
    const parsed = ProjectResources.safeParse(JSON.parse(json ?? "{}"));
    return parsed.success ? parsed.data : {};
  } catch {
    return {};
  }
}

/**
 * What a session's sandbox gets: the project's values, else the defaults, never over a cap (a cap
 * lowered after a project was saved still holds).
 */
export function effectiveResources(resources: ProjectResources, policy: ResourcePolicy): SandboxResources {
  const pick = (key: keyof ResourcePolicy["caps"]) =>
    Math.min(resources[key] ?? policy.defaults[key], policy.caps[key]);
  return {
    cpus: pick("cpus"),
    memoryMb: pick("memoryMb"),
    pids: pick("pids"),
    workspaceMb: pick("workspaceMb"),
  };
}

/** Docker's units for the container's limits. */
export function limitsOf(resources: SandboxResources): SandboxLimits {
  return {
    nanoCpus: Math.round(resources.cpus * 1e9),
    memoryBytes: resources.memoryMb * 1024 * 1024,
    pidsLimit: resources.pids,
  };
}

/** The container's limits as resources (the workspace cap is not a container setting). */
export function resourcesOfLimits(limits: SandboxLimits, workspaceMb: number | null): SandboxResources {
  return {
    cpus: limits.nanoCpus / 1e9,
    memoryMb: Math.round(limits.memoryBytes / (1024 * 1024)),
    pids: limits.pidsLimit,
    workspaceMb,
  };
}
