import { spawn } from "node:child_process";
import { stat } from "node:fs/promises";
import path from "node:path";
import type { Readable } from "node:stream";
import Docker from "dockerode";
import type { Logger } from "pino";
import { logger as rootLogger } from "@/server/logger";
import { runInContainer } from "./docker-exec";
import { DockerSandbox } from "./docker-sandbox";
import { containerNameFor } from "./shell";
import type {
  CreateSandboxOptions,
  LiveSessionsQuery,
  Sandbox,
  SandboxErrorCode,
  SandboxProvider,
} from "./types";
import { SandboxError, SandboxImageMissingError, SandboxUnavailableError } from "./types";

export const DEFAULT_SANDBOX_IMAGE = "arbor-sandbox:latest";
export const LABEL_MANAGED = "arbor.managed";
export const LABEL_SESSION = "arbor.session";
/**
 * Which Arbor server owns a container. Several servers may share one engine (a developer's Arbor and
 * the test suite's), and each sweeps only its own orphans.
 */
export const LABEL_INSTANCE = "arbor.instance";
const HOME_DIR = "/home/arbor";
const ORIGIN_DIR = `${HOME_DIR}/origin.git`;
const GiB = 1024 ** 3;

export interface SandboxLimits {
  memoryBytes: number;
  nanoCpus: number;
  pidsLimit: number;
}

export interface DockerSandboxProviderOptions {
  /** A ready client; otherwise one is made from `dockerOptions` (default: DOCKER_HOST or the local socket). */
  docker?: Docker;
  dockerOptions?: Docker.DockerOptions;
  image?: string;
  defaultTimeoutMs?: number;
  limits?: Partial<SandboxLimits>;
  logger?: Logger;
  /** Owner label for the orphan sweep (default "default"); see LABEL_INSTANCE. */
  instance?: string;
}

/** One hardened container per session, driven through the Docker Engine API (dockerode). */
export class DockerSandboxProvider implements SandboxProvider {
  readonly image: string;
  private readonly docker: Docker;
  private readonly limits: SandboxLimits;
  private readonly defaultTimeoutMs: number;
  private readonly log: Logger;
  private readonly instance: string;

  constructor(options: DockerSandboxProviderOptions = {}) {
    this.docker = options.docker ?? new Docker(options.dockerOptions);
    this.image = options.image ?? DEFAULT_SANDBOX_IMAGE;
    this.defaultTimeoutMs = options.defaultTimeoutMs ?? 120_000;
    this.limits = { memoryBytes: GiB, nanoCpus: 1e9, pidsLimit: 256, ...options.limits };
    this.log = (options.logger ?? rootLogger).child({ module: "sandbox" });
    this.instance = options.instance ?? "default";
  }

  /** Where the engine is expected, for error messages (never includes credentials). */
  get engineAddress(): string {
    const modem = this.docker.modem as unknown as { socketPath?: unknown; host?: unknown; port?: unknown };
    if (typeof modem.socketPath === "string") return modem.socketPath;
    if (typeof modem.host === "string") return `${modem.host}${modem.port ? `:${modem.port}` : ""}`;
    return "the default Docker socket";
  }

  async ping(): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(Object.assign(new Error("timed out"), { code: "ETIMEDOUT" })), 5_000);
    });
    try {
      await Promise.race([this.docker.ping(), timeout]);
    } catch (error) {
      throw this.wrap(error, "ping the Docker engine");
    } finally {
      clearTimeout(timer);
    }
  }

  async create(options: CreateSandboxOptions): Promise<Sandbox> {
    const { sessionId } = options;
    const name = containerNameFor(sessionId);
    const existing = await this.get(sessionId);
    if (existing) {
      this.log.info({ sessionId, container: name }, "re-attached to existing sandbox");
      return existing;
    }
    const branch = options.branch ?? `arbor/${sessionId}`;
    if (branch.startsWith("-")) throw new SandboxError("invalid_argument", `Invalid branch name: ${branch}.`);
    if (options.repoPath) await assertBareRepo(options.repoPath);

    const started = Date.now();
    let container: Docker.Container;
    try {
      container = await this.docker.createContainer(
        this.containerSpec(name, sessionId, options.allowNetwork ?? false),
      );
    } catch (error) {
      // Another request created it first: use that one.
      if (statusOf(error) === 409) {
        const raced = await this.get(sessionId);
        if (raced) return raced;
      }
      if (statusOf(error) === 404) throw new SandboxImageMissingError(this.image);
      throw this.wrap(error, "create the sandbox container");
    }
    try {
      await container.start();
      if (options.repoPath) await this.cloneInto(container, options.repoPath, branch);
    } catch (error) {
      // A half-made sandbox would be re-attached by the next create(); remove it so a retry starts clean.
      await container.remove({ force: true, v: true }).catch(() => undefined);
      throw error instanceof SandboxError ? error : this.wrap(error, "start the sandbox");
    }
    this.log.info({ sessionId, container: name, durationMs: Date.now() - started }, "sandbox created");
    return this.sandboxFor(container.id, sessionId);
  }

  async get(sessionId: string): Promise<Sandbox | null> {
    const name = containerNameFor(sessionId);
    let info: Docker.ContainerInspectInfo;
    try {
      info = await this.docker.getContainer(name).inspect();
    } catch (error) {
      if (statusOf(error) === 404) return null;
      throw this.wrap(error, "look up the sandbox");
    }
    if (info.Config.Labels?.[LABEL_MANAGED] !== "true") {
      throw new SandboxError(
        "create_failed",
        `A container named ${name} exists but is not managed by Arbor.`,
      );
    }
    if (!info.State.Running) {
      try {
        await this.docker.getContainer(info.Id).start();
      } catch (error) {
        // 304: it was started in the meantime.
        if (statusOf(error) !== 304) throw this.wrap(error, "restart the sandbox");
      }
    }
    return this.sandboxFor(info.Id, sessionId);
  }

  async sweepOrphans(isLive: LiveSessionsQuery): Promise<{ removed: string[]; kept: string[] }> {
    let containers: Docker.ContainerInfo[];
    try {
      containers = await this.docker.listContainers({
        all: true,
        filters: { label: [`${LABEL_MANAGED}=true`, `${LABEL_INSTANCE}=${this.instance}`] },
      });
    } catch (error) {
      throw this.wrap(error, "list sandbox containers");
    }
    const sessionIds = [
      ...new Set(containers.map((c) => c.Labels[LABEL_SESSION]).filter((id) => id !== undefined)),
    ];
    const live = sessionIds.length > 0 ? await isLive(sessionIds) : new Set<string>();
    const removed: string[] = [];
    const kept: string[] = [];
    for (const container of containers) {
      const sessionId = container.Labels[LABEL_SESSION];
      const label = sessionId ?? container.Names[0] ?? container.Id;
      if (sessionId !== undefined && live.has(sessionId)) {
        kept.push(sessionId);
        continue;
      }
      try {
        await this.docker.getContainer(container.Id).remove({ force: true, v: true });
        removed.push(label);
      } catch (error) {
        if (statusOf(error) === 404) removed.push(label);
        else
          this.log.warn(
            { container: container.Id, err: dockerMessage(error) },
            "could not remove orphaned sandbox",
          );
      }
    }
    if (removed.length > 0) this.log.info({ removed }, "removed orphaned sandboxes");
    return { removed, kept };
  }

  private containerSpec(
    name: string,
    sessionId: string,
    allowNetwork: boolean,
  ): Docker.ContainerCreateOptions {
    return {
      name,
      Image: this.image,
      Labels: { [LABEL_MANAGED]: "true", [LABEL_SESSION]: sessionId, [LABEL_INSTANCE]: this.instance },
      User: "1000:1000",
      WorkingDir: "/workspace",
      Hostname: "sandbox",
      Env: [`HOME=${HOME_DIR}`, "LANG=C.UTF-8", "GIT_TERMINAL_PROMPT=0"],
      HostConfig: {
        CapDrop: ["ALL"],
        SecurityOpt: ["no-new-privileges:true"],
        Privileged: false,
        PidsLimit: this.limits.pidsLimit,
        Memory: this.limits.memoryBytes,
        // Equal to Memory: no swap on top of the limit.
        MemorySwap: this.limits.memoryBytes,
        NanoCpus: this.limits.nanoCpus,
        NetworkMode: allowNetwork ? "bridge" : "none",
        // No bind mounts at all: the host's files (and the Docker socket) stay out of reach.
        Binds: [],
        RestartPolicy: { Name: "no" },
      },
    };
  }

  /**
   * Copies the bare repo in through the Engine API (a tar stream, no bind mount), then clones it
   * inside. The copy stays as the clone's `origin`, so the agent's branch can be fetched back.
   */
  private async cloneInto(container: Docker.Container, repoPath: string, branch: string): Promise<void> {
    // GNU tar renames the root to origin.git and owns everything by the sandbox user.
    const tar = spawn(
      "tar",
      [
        "-C",
        repoPath,
        "-c",
        "--owner=1000",
        "--group=1000",
        "--numeric-owner",
        "--transform=s,^\\.,origin.git,S",
        ".",
      ],
      { stdio: ["ignore", "pipe", "pipe"] },
    );
    let tarErr = "";
    tar.stderr.on("data", (chunk: Buffer) => {
      tarErr += chunk.toString("utf8");
    });
    // Never rejects, so a failed upload below cannot leave an unhandled rejection behind.
    const tarExit = new Promise<number>((resolve) => {
      tar.on("error", (error) => {
        tarErr += error.message;
        resolve(-1);
      });
      tar.on("close", (code) => resolve(code ?? 1));
    });
    try {
      await container.putArchive(tar.stdout as Readable, { path: HOME_DIR });
    } catch (error) {
      tar.kill();
      throw this.wrap(error, "copy the repository into the sandbox");
    }
    const code = await tarExit;
    if (code !== 0)
      throw new SandboxError("create_failed", `Cannot archive the repository: ${tarErr.trim()}`);

    // Check out the branch from origin when it exists there (a resumed session), else start it here.
    const script = [
      'git clone -q "$1" /workspace && cd /workspace || exit 1',
      'if git rev-parse -q --verify "refs/remotes/origin/$2" >/dev/null; then git checkout -q "$2"; else git checkout -q -b "$2"; fi',
    ].join("\n");
    const result = await runInContainer(
      container,
      ["bash", "-c", script, "arbor-clone", ORIGIN_DIR, branch],
      {
        deadlineMs: 120_000,
      },
    );
    if (result.exitCode !== 0) {
      throw new SandboxError(
        "create_failed",
        `Cannot clone the repository in the sandbox: ${result.stderr.trim()}`,
      );
    }
  }

  private sandboxFor(containerId: string, sessionId: string): Sandbox {
    return new DockerSandbox({
      container: this.docker.getContainer(containerId),
      sessionId,
      containerName: containerNameFor(sessionId),
      defaultTimeoutMs: this.defaultTimeoutMs,
      log: this.log,
      wrap: (error, action) => this.wrap(error, action, "exec_failed"),
    });
  }

  /** Turns a Docker client error into a typed one with a message fit for a user. */
  wrap(error: unknown, action: string, code: SandboxErrorCode = "create_failed"): SandboxError {
    if (error instanceof SandboxError) return error;
    const netCode = (error as { code?: unknown })?.code;
    if (typeof netCode === "string" && CONNECTION_ERRORS.has(netCode)) {
      const hint =
        netCode === "EACCES"
          ? "permission denied on the socket (is the server's user allowed to use Docker?)"
          : "is dockerd running? (scripts/ensure-docker.sh starts it)";
      return new SandboxUnavailableError(
        `Docker engine is not reachable at ${this.engineAddress}: ${hint} [${netCode}]`,
        {
          cause: error,
        },
      );
    }
    if (statusOf(error) === 404)
      return new SandboxError("not_found", `Cannot ${action}: ${dockerMessage(error)}`);
    return new SandboxError(code, `Cannot ${action}: ${dockerMessage(error)}`, { cause: error });
  }
}

const CONNECTION_ERRORS = new Set([
  "ENOENT",
  "ECONNREFUSED",
  "EACCES",
  "ETIMEDOUT",
  "EHOSTUNREACH",
  "ECONNRESET",
]);

function statusOf(error: unknown): number | undefined {
  const status = (error as { statusCode?: unknown })?.statusCode;
  return typeof status === "number" ? status : undefined;
}

/** The engine's own message when there is one ("No such container: …"), else the error's. */
export function dockerMessage(error: unknown): string {
  const json = (error as { json?: { message?: unknown } })?.json;
  if (json && typeof json.message === "string") return json.message.trim();
  return error instanceof Error ? error.message : String(error);
}

async function assertBareRepo(repoPath: string): Promise<void> {
  const ok = await Promise.all(
    ["HEAD", "objects", "refs"].map((entry) =>
      stat(path.join(repoPath, entry)).then(
        () => true,
        () => false,
      ),
    ),
  );
  if (!ok.every(Boolean)) {
    throw new SandboxError("invalid_argument", `Not a bare git repository: ${repoPath}.`);
  }
}
