import "server-only";
import type Docker from "dockerode";
import type { SandboxRuntime } from "@/server/domain/vocabulary/sandbox-runtime";
import { safeGitEnvLines } from "./safe-git";

/**
 * What every sandbox container is: hardened by default (non-root, no capabilities, no new privileges,
 * read-only root, limits, no network unless asked, no binds), labelled so its owner can find it.
 */
export const DEFAULT_SANDBOX_IMAGE = "arbor-sandbox:latest";
export const LABEL_MANAGED = "arbor.managed";
export const LABEL_SESSION = "arbor.session";
/**
 * Which Arbor server owns a container. Several servers may share one engine (a developer's Arbor and
 * the test suite's), and each sweeps only its own orphans.
 */
export const LABEL_INSTANCE = "arbor.instance";
/**
 * Set on warm-pool containers at creation. Labels cannot change later, so a claimed pool container
 * keeps it: once claimed, its name (`arbor-session-<id>`) is the source of truth for its session.
 */
export const LABEL_POOL = "arbor.pool";
/**
 * What a warm-pool container was made with (image, network, limits: see `poolKeyOf`), so a claim
 * takes only a container that matches the session's project, also after a restart adopts it.
 */
export const LABEL_POOL_KEY = "arbor.pool-key";
export const SESSION_NAME_PREFIX = "arbor-session-";
export const POOL_NAME_PREFIX = "arbor-pool-";
/** Size caps of the writable tmpfs (the root filesystem itself is read-only). */
export const TMP_TMPFS = "rw,nosuid,nodev,size=256m";
export const HOME_DIR = "/home/arbor";
export const ORIGIN_DIR = `${HOME_DIR}/origin.git`;
export const GiB = 1024 ** 3;
/**
 * What every sandbox runs as PID 1, whatever its image says: a per-project Dockerfile may set its own
 * ENTRYPOINT, CMD or USER, and none of them may replace tini + sleep or the sandbox user.
 */
export const SANDBOX_ENTRYPOINT = ["/usr/bin/tini", "--"];
export const SANDBOX_CMD = ["sleep", "infinity"];

/**
 * A container whose network is Arbor's internal egress network (see egress/egress-proxy.ts): it
 * reaches the world only through the proxy named in `env`, and has no DNS of its own (an address
 * nothing answers at, so even an engine that forwards queries from an internal network sends them
 * nowhere).
 */
export interface EgressNetwork {
  name: string;
  env: string[];
}
export const NO_DNS = ["240.0.0.1"];

export interface SandboxLimits {
  memoryBytes: number;
  nanoCpus: number;
  pidsLimit: number;
}

/** The sandbox's resource limits. */
export function containerSpec(options: {
  name: string;
  /** Absent for a warm-pool container, which gets the pool label instead. */
  sessionId: string | undefined;
  allowNetwork: boolean;
  image: string;
  instance: string;
  limits: SandboxLimits;
  /** A warm-pool container's key (`poolKeyOf`), recorded as a label. */
  poolKey?: string;
  /** Absent: the engine's default (runc). "runsc" (gVisor) never gets a network. */
  runtime?: SandboxRuntime;
  /** Set: the container joins this internal network instead of none/bridge. */
  egressNetwork?: EgressNetwork;
  /** The project's dependency cache volume (dep-cache.ts), mounted at /cache with the tools pointed at it. */
  cacheVolume?: { name: string; target: string; env: string[] };
}): Docker.ContainerCreateOptions {
  const { name, sessionId, allowNetwork } = options;
  const labels: Record<string, string> = { [LABEL_MANAGED]: "true", [LABEL_INSTANCE]: options.instance };
  if (sessionId === undefined) labels[LABEL_POOL] = "true";
  else labels[LABEL_SESSION] = sessionId;
  if (options.poolKey !== undefined) labels[LABEL_POOL_KEY] = options.poolKey;
  return {
    name,
    Image: options.image,
    Labels: labels,
    // Anonymous volumes (removed with the container): the only writable places besides /tmp. They
    // start as copies of the image's directories, owned by the sandbox user, and survive a restart.
    Volumes: { "/workspace": {}, [HOME_DIR]: {} },
    User: "1000:1000",
    Entrypoint: SANDBOX_ENTRYPOINT,
    Cmd: SANDBOX_CMD,
    WorkingDir: "/workspace",
    Hostname: "sandbox",
    // Every process in the container inherits it: see safe-git.ts for why git needs it.
    Env: [
      `HOME=${HOME_DIR}`,
      "LANG=C.UTF-8",
      "GIT_TERMINAL_PROMPT=0",
      // Running a project's tests (the regression guard runs them before any work) must not leave
      // __pycache__/*.pyc in the workspace, where they would show as the session's changes and be saved.
      "PYTHONDONTWRITEBYTECODE=1",
      ...safeGitEnvLines(),
      ...(options.egressNetwork?.env ?? []),
      ...(options.cacheVolume?.env ?? []),
    ],
    HostConfig: {
      CapDrop: ["ALL"],
      SecurityOpt: ["no-new-privileges:true"],
      Privileged: false,
      PidsLimit: hostPidsLimit(options.limits.pidsLimit, options.runtime),
      Memory: options.limits.memoryBytes,
      // Equal to Memory: no swap on top of the limit.
      MemorySwap: options.limits.memoryBytes,
      NanoCpus: options.limits.nanoCpus,
      NetworkMode: options.egressNetwork?.name ?? (allowNetwork ? "bridge" : "none"),
      ...(options.egressNetwork
        ? { Dns: NO_DNS, DnsOptions: ["timeout:1", "attempts:1"], DnsSearch: [] }
        : {}),
      // No bind mounts at all: the host's files (and the Docker socket) stay out of reach.
      Binds: [],
      ReadonlyRootfs: true,
      Tmpfs: { "/tmp": TMP_TMPFS },
      ...(options.cacheVolume
        ? {
            Mounts: [
              {
                Type: "volume" as const,
                Source: options.cacheVolume.name,
                Target: options.cacheVolume.target,
              },
            ],
          }
        : {}),
      RestartPolicy: { Name: "no" },
      ...(options.runtime === "runsc" ? { Runtime: "runsc" } : {}),
    },
  };
}

/** Everything that makes two sandboxes interchangeable before a session claims one. */
export function poolKeyOf(options: { image: string; allowNetwork: boolean; limits: SandboxLimits }): string {
  const { memoryBytes, nanoCpus, pidsLimit } = options.limits;
  return `${options.image}|net=${options.allowNetwork ? "bridge" : "none"}|cpu=${nanoCpus}|mem=${memoryBytes}|pids=${pidsLimit}`;
}

/**
 * The host cgroup's pids limit. Under runc it is the sandbox's own process limit. Under gVisor the host
 * sees the Sentry's threads, not the sandbox's processes, and a handful of parallel commands (the
 * toolchain probe starts nine) already needs several hundred of them: at 256 or 512 the whole sandbox
 * died with exit 2. So gVisor gets room for its threads; a fork bomb still ends at that limit, taking
 * only its own sandbox down (measured: at 2048 it ends within ~2 s, neighbours unaffected).
 */
export function hostPidsLimit(pidsLimit: number, runtime: SandboxRuntime | undefined): number {
  return runtime === "runsc" ? Math.max(2048, pidsLimit * 8) : pidsLimit;
}
