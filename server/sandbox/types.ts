import "server-only";
import type { ToolchainVersion } from "@/server/domain/events/bodies/sandbox";
import type { ExecOptions, ExecResult } from "@/server/domain/sandbox-port";
import type { EgressMode, EgressPhase, EgressSettings } from "@/server/domain/vocabulary/egress";
import type { EgressRestore } from "@/server/domain/vocabulary/egress-restore";
import type { SandboxRuntime } from "@/server/domain/vocabulary/sandbox-runtime";
import type { SandboxLimits } from "./container-spec";

/**
 * The sandbox port: one isolated container per session where every tool runs. The orchestrator and
 * tools depend on these types only; `docker-provider.ts` is the implementation. What a command run
 * takes and returns is the domain's (`server/domain/sandbox-port.ts`), so lower layers can run one.
 */

export interface Sandbox {
  /** The Docker container id. */
  readonly id: string;
  readonly sessionId: string;
  /** `arbor-session-<sessionId>`, what `docker ps` shows. */
  readonly containerName: string;
  /** The limits the container runs with, when the provider knows them. */
  readonly limits?: SandboxLimits;
  /** The toolchain versions it has (one probe, see toolchains.ts); absent: the provider cannot tell. */
  toolchains?(): Promise<ToolchainVersion[]>;
  /** The image and runtime the container runs with, as the engine reports them (absent: not known). */
  readonly image?: string;
  readonly runtime?: SandboxRuntime;
  /** Runs `command` with bash in /workspace as user arbor (uid 1000). Never throws for a non-zero exit. */
  exec(command: string, options?: ExecOptions): Promise<ExecResult>;
  /** A UTF-8 text file; relative paths resolve against /workspace. Throws SandboxFileError. */
  readFile(path: string): Promise<string>;
  /** Creates or replaces a file (and its parent directories) as user arbor. Throws SandboxFileError. */
  writeFile(path: string, content: string): Promise<void>;
  /** Removes the container and everything in it. Safe to call twice. */
  dispose(): Promise<void>;
  /**
   * Ends every command a previous server process left running in this container (found by the tag
   * each exec carries, see shell.ts), e.g. after a `kill -9` of the server: a `docker exec` outlives
   * the process that started it. Says how many processes it ended and how long the oldest had run.
   * Only for recovery at resume, before this server runs anything in the container.
   */
  endLeftovers?(): Promise<{ ended: number; ranMs: number | null }>;
}

export interface CreateSandboxOptions {
  sessionId: string;
  /** Host path of a bare git repository, cloned into /workspace. Without it, /workspace is empty. */
  repoPath?: string;
  /** Branch created for the session's work (default `arbor/<sessionId>`). */
  branch?: string;
  /** Give the container a network (default: none). Refused with the gVisor runtime, which has none. */
  allowNetwork?: boolean;
  /** The project's resource limits (default: the provider's); a warm container is claimed only when they match. */
  limits?: SandboxLimits;
  /** The image to run (default: the provider's image), e.g. a project's own image built on it. */
  image?: string;
  /** The container runtime (default runc); runsc needs the engine to have it registered. */
  runtime?: SandboxRuntime;
  /**
   * The project's network settings per phase. With a phase that is not Off, the container is made
   * able to join networks (never from the warm pool); `setEgressPhase` then applies each phase.
   */
  egress?: EgressSettings;
  /** The project whose dependency cache volume the container mounts at /cache (dep-cache.ts). */
  cacheProjectId?: string;
}

/** What a phase's network actually is after `setEgressPhase` (it may be less than asked, never more). */
export interface EgressApplied {
  phase: EgressPhase;
  requested: EgressMode;
  applied: EgressMode;
  /** Why `applied` is less than `requested` (the proxy could not start, the container has no network…). */
  problem: string | null;
}

/**
 * How a (re)started server gives a session's running sandbox its network back (issue #19): what the
 * session's log recorded, narrowed to the project's settings now (`restoredEgress`), then recorded.
 */
export interface EgressRecords {
  /** The phase to give back; null: nothing recorded. Throws when the record cannot be read. */
  restoreFor(sessionId: string): Promise<EgressRestore | null>;
  /** Records what the sandbox got back (an `egress-phase-set` marked restored). */
  restored(sessionId: string, applied: EgressApplied, settings: EgressSettings): Promise<void>;
}

/** Given the session ids found on containers, answers which of them are still live. */
export type LiveSessionsQuery = (sessionIds: string[]) => Promise<ReadonlySet<string>> | ReadonlySet<string>;

export interface SandboxProvider {
  /**
   * A running sandbox for the session. If the session already has a container (e.g. created before a
   * server restart), that one is re-attached and its workspace is left as it is.
   */
  create(options: CreateSandboxOptions): Promise<Sandbox>;
  /** The session's existing sandbox (started again if it was stopped), or null when there is none. */
  get(sessionId: string): Promise<Sandbox | null>;
  /** Removes every Arbor container whose session is not live; run at server start. */
  sweepOrphans(isLive: LiveSessionsQuery): Promise<{ removed: string[]; kept: string[] }>;
  /** Removes the dependency cache volumes of projects that no longer exist; run at server start. */
  sweepCacheVolumes?(
    liveProjects: (projectIds: string[]) => Promise<Set<string>>,
  ): Promise<{ removed: string[]; kept: string[] }>;
  /** Copies one session container's /workspace over another's (a gVisor session's runc setup). */
  copyWorkspace?(fromSessionId: string, toSessionId: string): Promise<void>;
  /** Removes a deleted project's cache volume and built images. */
  removeProjectArtifacts?(projectId: string): Promise<{ images: string[] }>;
  /** Resolves when the engine answers; throws SandboxUnavailableError otherwise. */
  ping(): Promise<void>;
  /** The runtimes the engine offers (e.g. ["runc", "runsc"]); absent: only the default one. */
  runtimes?(): Promise<string[]>;
  /** A person's interactive shell in the session's sandbox (see terminal.ts); absent: no terminals. */
  openTerminal?(sessionId: string, size: TerminalSize): Promise<SandboxTerminal>;
  /**
   * A long-lived program in the session's sandbox with stdin and stdout open (sandbox-process.ts):
   * how a project's MCP server speaking stdio runs there. Absent: the provider cannot.
   */
  openProcess?(
    sessionId: string,
    argv: readonly string[],
    env?: Record<string, string>,
  ): Promise<SandboxProcess>;
  /**
   * Puts the session's container in a phase's network (off, through the proxy, or open). `recordAs`:
   * the session its connections are recorded for (a gVisor session's runc setup container records
   * for that session; default: `sessionId`).
   */
  setEgressPhase?(
    sessionId: string,
    phase: EgressPhase,
    settings: EgressSettings,
    recordAs?: string,
  ): Promise<EgressApplied>;
}

export type SandboxErrorCode =
  | "unavailable"
  | "image_missing"
  | "invalid_argument"
  | "not_found"
  | "create_failed"
  | "exec_failed"
  | "file_error";

/** Every failure of the sandbox layer, with a message fit to show a user (no secrets, no stack). */
export class SandboxError extends Error {
  constructor(
    readonly code: SandboxErrorCode,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = "SandboxError";
  }
}

export class SandboxUnavailableError extends SandboxError {
  constructor(message: string, options?: { cause?: unknown }) {
    super("unavailable", message, options);
    this.name = "SandboxUnavailableError";
  }
}

export class SandboxImageMissingError extends SandboxError {
  constructor(image: string) {
    super("image_missing", `Sandbox image ${image} not found: build it with sandbox-image/build.sh.`);
    this.name = "SandboxImageMissingError";
  }
}

export class SandboxFileError extends SandboxError {
  constructor(
    readonly path: string,
    message: string,
  ) {
    super("file_error", message);
    this.name = "SandboxFileError";
  }
}

/** A terminal's size in characters. */
export interface TerminalSize {
  cols: number;
  rows: number;
}

export interface SandboxTerminal {
  /** The Docker exec id. */
  readonly id: string;
  /** Raw bytes as the pty produced them (UTF-8, escape sequences and all). */
  onData(listener: (chunk: Buffer) => void): void;
  /** Once, when the shell is gone: it exited, was closed, or the container went away. */
  onExit(listener: (exitCode: number | null) => void): void;
  /** Keystrokes or pasted text, exactly as typed. Ignored once the shell is gone. */
  write(data: string): void;
  resize(size: TerminalSize): Promise<void>;
  /** Hangs the shell up (HUP, then KILL), so no process of it stays behind. Safe to call twice. */
  close(): Promise<void>;
  readonly exited: boolean;
}

/** A program running in the sandbox with its standard streams open to the server (no TTY). */
export interface SandboxProcess {
  onStdout(listener: (chunk: Buffer) => void): void;
  onStderr(listener: (chunk: Buffer) => void): void;
  /** Once, when the program is gone: it exited, was closed, or the container went away. */
  onExit(listener: (exitCode: number | null) => void): void;
  /** Bytes for its stdin; ignored once it is gone. */
  write(data: string): void;
  /** Ends it and everything it started (HUP, then KILL). Safe to call twice. */
  close(): Promise<void>;
  readonly exited: boolean;
}
