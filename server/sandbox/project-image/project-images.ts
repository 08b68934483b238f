import "server-only";
import { createHash } from "node:crypto";
import type Docker from "dockerode";
import type { Logger } from "pino";
import type { EgressSettings } from "@/server/domain/vocabulary/egress";
import type { PrismaClient } from "@/server/generated/prisma/client";
import type { EgressProxy } from "../egress/egress-proxy";
import { appendCapped, buildImage, ProjectImageBuildError } from "./build-image";
import { buildNetworkFor } from "./build-network";
import { findProjectDockerfile, ProjectDockerfileError, readContextTar } from "./find-dockerfile";

export const LABEL_PROJECT = "arbor.project";
const LABEL_PROJECT_HASH = "arbor.project.hash";
/** How often a running build's log is written to the database (the project page reads it from there). */
const LOG_FLUSH_MS = 500;

/** The image a project's next session runs, and why. */
export interface ImageChoice {
  image: string;
  /** server: the server's own image; built / cached: the project's image for its default branch now;
   * last-good: its newest build failed (or is not for the current files), so the last image that built. */
  source: "server" | "built" | "cached" | "last-good";
}

export interface ProjectImagesDeps {
  db: Pick<PrismaClient, "project" | "projectImageBuild">;
  docker: Docker;
  /** The server's sandbox image: what a project's Dockerfile starts from (ARBOR_BASE). */
  baseImage: string;
  log: Logger;
  /**
   * The project's egress settings: its build runs under the setup phase's (build-network.ts). Absent:
   * the build has no network at all.
   */
  egressOf?: (projectId: string) => Promise<EgressSettings>;
  /** Arbor's egress proxy, for a setup phase with an allow-list. */
  egressProxy?: EgressProxy | null;
}

/** With no settings to read, a build gets no network. */
const NO_NETWORK: EgressSettings = {
  setup: { mode: "off", getHeadOnly: false },
  agent: { mode: "off", getHeadOnly: false },
  allowList: [],
};

/** `arbor-project-<project id>:<hash>`: a valid Docker reference whatever the id holds. */
export function projectImageTag(projectId: string, hash: string): string {
  const name = projectId
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 80);
  return `arbor-project-${name || "x"}:${hash}`;
}

/**
 * Per-project sandbox images. A project's Dockerfile (see find-dockerfile.ts) on its default branch is
 * built on the server's image, tagged with a hash of its context's content, the Dockerfile's place in
 * it and the base image, and built only when no image with that tag exists. A build that fails leaves
 * the project's last good image in place. One build per project at a time: concurrent sessions wait
 * for the same one.
 */
export class ProjectImages {
  private readonly inFlight = new Map<string, Promise<ImageChoice>>();

  constructor(private readonly deps: ProjectImagesDeps) {}

  /** The image for a new session of the project, building the project's image first when needed. */
  imageFor(projectId: string): Promise<ImageChoice> {
    return this.once(projectId, () => this.resolve(projectId, false));
  }

  /** Builds the default branch's Dockerfile again even if its last build (for the same files) failed. */
  rebuild(projectId: string): Promise<ImageChoice> {
    return this.once(projectId, () => this.resolve(projectId, true));
  }

  /** Whether a build of the project runs in this process right now. */
  isBuilding(projectId: string): boolean {
    return this.inFlight.has(projectId);
  }

  private once(projectId: string, work: () => Promise<ImageChoice>): Promise<ImageChoice> {
    const running = this.inFlight.get(projectId);
    if (running) return running;
    const started = work().finally(() => this.inFlight.delete(projectId));
    this.inFlight.set(projectId, started);
    return started;
  }

  private async resolve(projectId: string, force: boolean): Promise<ImageChoice> {
    const { db, baseImage } = this.deps;
    const project = await db.project.findUniqueOrThrow({
      where: { id: projectId },
      select: { repoPath: true, sandboxImage: true },
    });
    let found: Awaited<ReturnType<typeof findProjectDockerfile>>;
    try {
      found = await findProjectDockerfile(project.repoPath);
    } catch (error) {
      if (!(error instanceof ProjectDockerfileError)) throw error;
      await this.recordFailure(
        projectId,
        { hash: "-", image: "-", dockerfile: "-", commit: "-" },
        error.message,
        "",
      );
      return this.lastGood(project.sandboxImage);
    }
    if (!found) {
      // The default branch no longer brings a Dockerfile: its sessions use the server's image again.
      if (project.sandboxImage !== null)
        await db.project.update({ where: { id: projectId }, data: { sandboxImage: null } });
      return { image: baseImage, source: "server" };
    }
    const baseId = await this.imageId(baseImage);
    if (!baseId) return { image: baseImage, source: "server" };
    const hash = createHash("sha256")
      .update(`${found.contextTree}\n${found.dockerfileInContext}\n${baseId}`)
      .digest("hex")
      .slice(0, 16);
    const image = projectImageTag(projectId, hash);
    if (await this.imageId(image)) {
      if (project.sandboxImage !== image)
        await db.project.update({ where: { id: projectId }, data: { sandboxImage: image } });
      return { image, source: "cached" };
    }
    if (!force) {
      // The same files failed before: building them again would fail again. A person asks for a rebuild.
      const failed = await db.projectImageBuild.findFirst({
        where: { projectId, hash, status: "failed" },
        select: { id: true },
      });
      if (failed) return this.lastGood(project.sandboxImage);
    }
    const build = await db.projectImageBuild.create({
      data: {
        projectId,
        hash,
        image,
        dockerfile: found.dockerfile,
        commit: found.commit,
        status: "building",
      },
    });
    let log = `Building ${found.dockerfile} of ${found.commit.slice(0, 12)} (context ${found.contextDir || "."}) as ${image}\n`;
    let flushed = 0;
    let writing: Promise<unknown> = Promise.resolve();
    const flush = () => {
      flushed = Date.now();
      const text = log;
      writing = writing
        .then(() => db.projectImageBuild.update({ where: { id: build.id }, data: { log: text } }))
        .catch((error: unknown) =>
          this.deps.log.warn({ err: error, projectId }, "could not store build log"),
        );
    };
    flush();
    const network = await buildNetworkFor(
      (await this.deps.egressOf?.(projectId)) ?? NO_NETWORK,
      this.deps.egressProxy ?? null,
    );
    log = appendCapped(log, `${network.note}\n`);
    try {
      const context = await readContextTar(project.repoPath, found);
      await buildImage({
        networkMode: network.networkMode,
        buildArgs: network.buildArgs,
        docker: this.deps.docker,
        context,
        dockerfile: found.dockerfileInContext,
        tag: image,
        baseImage,
        labels: { [LABEL_PROJECT]: projectId, [LABEL_PROJECT_HASH]: hash },
        onLog: (text) => {
          log = appendCapped(log, text);
          if (Date.now() - flushed >= LOG_FLUSH_MS) flush();
        },
      });
    } catch (error) {
      await writing;
      const known = error instanceof ProjectImageBuildError || error instanceof ProjectDockerfileError;
      const message = known ? error.message : "The project's image did not build (see the server log).";
      if (!known) this.deps.log.error({ err: error, projectId }, "project image build failed");
      await db.projectImageBuild.update({
        where: { id: build.id },
        data: {
          status: "failed",
          error: message,
          log: appendCapped(log, `\n${message}\n`),
          finishedAt: new Date(),
        },
      });
      return this.lastGood(project.sandboxImage);
    } finally {
      network.release();
    }
    await writing;
    await db.projectImageBuild.update({
      where: { id: build.id },
      data: { status: "succeeded", log: appendCapped(log, `\nBuilt ${image}.\n`), finishedAt: new Date() },
    });
    await db.project.update({ where: { id: projectId }, data: { sandboxImage: image } });
    return { image, source: "built" };
  }

  private async recordFailure(
    projectId: string,
    what: { hash: string; image: string; dockerfile: string; commit: string },
    error: string,
    log: string,
  ): Promise<void> {
    await this.deps.db.projectImageBuild.create({
      data: { projectId, ...what, status: "failed", error, log, finishedAt: new Date() },
    });
  }

  /** The project's last image that built, if the engine still has it; otherwise the server's. */
  private async lastGood(sandboxImage: string | null): Promise<ImageChoice> {
    if (sandboxImage && (await this.imageId(sandboxImage)))
      return { image: sandboxImage, source: "last-good" };
    return { image: this.deps.baseImage, source: "server" };
  }

  private async imageId(image: string): Promise<string | null> {
    return this.deps.docker
      .getImage(image)
      .inspect()
      .then((info) => info.Id)
      .catch(() => null);
  }
}
