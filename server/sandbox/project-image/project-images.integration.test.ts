import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import Docker from "dockerode";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { PrismaClient } from "@/server/generated/prisma/client";
import { createTestDb } from "@/testing/db/test-db";
import {
  cleanUp,
  dockerInspect,
  git,
  makeBareRepo,
  PREFIX,
  silent,
  testProvider,
} from "@/testing/sandbox/docker";
import { DEFAULT_SANDBOX_IMAGE } from "../container-spec";
import type { DockerSandboxProvider } from "../docker-provider";
import { LABEL_PROJECT, ProjectImages } from "./project-images";

/** Per-project images, for real: git bare repositories, the Docker engine's build API, SQLite. */
let provider: DockerSandboxProvider;
let db: PrismaClient;
let cleanupDb: () => Promise<void>;
const docker = new Docker();
const projectIds: string[] = [];

/** Commits `files` on `branch` of the bare repository (as a person's merge would put them there). */
function commitTo(bare: string, branch: string, files: Record<string, string>): void {
  const work = mkdtempSync(path.join(tmpdir(), "arbor-img-"));
  try {
    git(["clone", "-q", bare, work]);
    git(["checkout", "-q", "-B", branch], work);
    for (const [file, content] of Object.entries(files)) {
      mkdirSync(path.dirname(path.join(work, file)), { recursive: true });
      writeFileSync(path.join(work, file), content);
    }
    git(["add", "-A"], work);
    git(["-c", "user.name=T", "-c", "user.email=t@example.com", "commit", "-q", "-m", `on ${branch}`], work);
    git(["push", "-q", "origin", `HEAD:${branch}`], work);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

async function newProject(name: string): Promise<{ id: string; repoPath: string }> {
  const repoPath = makeBareRepo(true);
  const user = await db.user.create({ data: { email: `${name}-${PREFIX}@example.com`, name } });
  const team = await db.team.create({ data: { name } });
  const project = await db.project.create({
    data: { name, teamId: team.id, repoPath, createdById: user.id },
  });
  projectIds.push(project.id);
  return { id: project.id, repoPath };
}

/** How a project's Dockerfile starts: from the server's own image, whose name the server passes in. */
const FROM_BASE = `ARG ARBOR_BASE\nFROM \${ARBOR_BASE}\n`;

// A Dockerfile that tries to weaken the sandbox: root user, its own entrypoint and command.
const HOSTILE_DOCKERFILE = `ARG ARBOR_BASE
FROM \${ARBOR_BASE}
USER root
RUN echo project-image > /etc/arbor-project
ENTRYPOINT ["/bin/sh", "-c", "echo replaced; exit 3"]
CMD ["ignored"]
`;

beforeAll(async () => {
  provider = testProvider("project-image");
  ({ db, cleanup: cleanupDb } = await createTestDb());
}, 600_000);

afterAll(async () => {
  await cleanUp(provider);
  await cleanupDb?.();
  const images = await docker.listImages({ filters: { label: [LABEL_PROJECT] } });
  for (const image of images) {
    if (image.Labels?.[LABEL_PROJECT] && projectIds.includes(image.Labels[LABEL_PROJECT]))
      await docker
        .getImage(image.Id)
        .remove({ force: true })
        .catch(() => undefined);
  }
});

const images = () => new ProjectImages({ db, docker, baseImage: DEFAULT_SANDBOX_IMAGE, log: silent });

describe("a project's own image", () => {
  it("builds once from the default branch, is reused, and runs hardened whatever the Dockerfile says", async () => {
    const project = await newProject("own-image");
    commitTo(project.repoPath, "main", { ".arbor/Dockerfile": HOSTILE_DOCKERFILE });
    const service = images();

    const first = await service.imageFor(project.id);
    expect(first.source).toBe("built");
    expect(first.image).toMatch(/^arbor-project-[a-z0-9-]+:[0-9a-f]{16}$/);
    const builds = await db.projectImageBuild.findMany({ where: { projectId: project.id } });
    expect(builds).toHaveLength(1);
    expect(builds[0]).toMatchObject({
      status: "succeeded",
      image: first.image,
      dockerfile: ".arbor/Dockerfile",
    });
    expect(builds[0]?.log).toContain("RUN echo project-image");

    // A second session (a new service too: nothing kept in memory) uses the same image without building.
    const second = await images().imageFor(project.id);
    expect(second).toEqual({ image: first.image, source: "cached" });
    expect(await db.projectImageBuild.count({ where: { projectId: project.id } })).toBe(1);
    expect((await db.project.findUniqueOrThrow({ where: { id: project.id } })).sandboxImage).toBe(
      first.image,
    );

    const [own, plain] = await Promise.all([
      provider.create({ sessionId: `${PREFIX}-own`, image: first.image }),
      provider.create({ sessionId: `${PREFIX}-plain` }),
    ]);
    try {
      expect((await own.exec("cat /etc/arbor-project")).stdout).toBe("project-image\n");
      expect((await own.exec("id -u")).stdout).toBe("1000\n");
      const ownInfo = dockerInspect(own.containerName) as ReturnType<typeof dockerInspect> & {
        Path: string;
        Args: string[];
        Config: { Image: string };
      };
      const plainInfo = dockerInspect(plain.containerName);
      expect(ownInfo.Config.Image).toBe(first.image);
      expect(ownInfo.Path).toBe("/usr/bin/tini");
      expect(ownInfo.Args).toEqual(["--", "sleep", "infinity"]);
      expect(ownInfo.Config.User).toBe("1000:1000");
      const hardening = (info: ReturnType<typeof dockerInspect>) => {
        const {
          CapDrop,
          ReadonlyRootfs,
          SecurityOpt,
          Memory,
          MemorySwap,
          NanoCpus,
          PidsLimit,
          NetworkMode,
          Privileged,
          Binds,
        } = info.HostConfig;
        return {
          CapDrop,
          ReadonlyRootfs,
          SecurityOpt,
          Memory,
          MemorySwap,
          NanoCpus,
          PidsLimit,
          NetworkMode,
          Privileged,
          Binds,
        };
      };
      expect(hardening(ownInfo)).toEqual(hardening(plainInfo));
      expect(hardening(ownInfo)).toMatchObject({
        CapDrop: ["ALL"],
        ReadonlyRootfs: true,
        SecurityOpt: ["no-new-privileges:true"],
        NetworkMode: "none",
        Privileged: false,
      });
    } finally {
      await Promise.all([own.dispose(), plain.dispose()]);
    }
  });

  it("reports a broken Dockerfile with its log and keeps the last good image", async () => {
    const project = await newProject("broken-image");
    commitTo(project.repoPath, "main", {
      ".arbor/Dockerfile": `${FROM_BASE}RUN echo good > /home/arbor/good\n`,
    });
    const good = await images().imageFor(project.id);
    expect(good.source).toBe("built");

    commitTo(project.repoPath, "main", {
      ".arbor/Dockerfile": `${FROM_BASE}RUN echo about to fail && false\n`,
    });
    const after = await images().imageFor(project.id);
    expect(after).toEqual({ image: good.image, source: "last-good" });
    const failed = await db.projectImageBuild.findFirstOrThrow({
      where: { projectId: project.id, status: "failed" },
    });
    expect(failed.error).toMatch(/did not build.*non-zero code/);
    expect(failed.log).toContain("about to fail");
    expect((await db.project.findUniqueOrThrow({ where: { id: project.id } })).sandboxImage).toBe(good.image);

    // The same broken files are not built again for every session; a person's rebuild tries again.
    expect((await images().imageFor(project.id)).source).toBe("last-good");
    expect(await db.projectImageBuild.count({ where: { projectId: project.id, status: "failed" } })).toBe(1);
    expect((await images().rebuild(project.id)).source).toBe("last-good");
    expect(await db.projectImageBuild.count({ where: { projectId: project.id, status: "failed" } })).toBe(2);
  });

  it("says how to start from Arbor's image when the base cannot be pulled", async () => {
    const project = await newProject("unpullable-base");
    commitTo(project.repoPath, "main", {
      ".arbor/Dockerfile": "FROM arbor-no-such-base-image:1\nRUN true\n",
    });
    const choice = await images().imageFor(project.id);
    expect(choice).toEqual({ image: DEFAULT_SANDBOX_IMAGE, source: "server" });
    const failed = await db.projectImageBuild.findFirstOrThrow({ where: { projectId: project.id } });
    expect(failed.status).toBe("failed");
    expect(failed.error).toContain("cannot be pulled here");
    expect(failed.error).toContain(`FROM \${ARBOR_BASE}`);
  }, 180_000);

  it("does not build a Dockerfile that is only on a session branch", async () => {
    const project = await newProject("unmerged-image");
    commitTo(project.repoPath, "arbor/session-x", { ".arbor/Dockerfile": HOSTILE_DOCKERFILE });
    const choice = await images().imageFor(project.id);
    expect(choice).toEqual({ image: DEFAULT_SANDBOX_IMAGE, source: "server" });
    expect(await db.projectImageBuild.count({ where: { projectId: project.id } })).toBe(0);
  });

  it("builds the Dockerfile a devcontainer.json names, with its context", async () => {
    const project = await newProject("devcontainer-image");
    commitTo(project.repoPath, "main", {
      ".devcontainer/devcontainer.json": `{
        // comments and trailing commas, as VS Code writes them
        "name": "dev",
        "build": { "dockerfile": "docker/Dockerfile", "context": "..", },
      }`,
      ".devcontainer/docker/Dockerfile": `${FROM_BASE}COPY tools.txt /etc/arbor-tools\n`,
      "tools.txt": "from the repository root\n",
    });
    const choice = await images().imageFor(project.id);
    expect(choice.source).toBe("built");
    const build = await db.projectImageBuild.findFirstOrThrow({ where: { projectId: project.id } });
    expect(build.dockerfile).toBe(".devcontainer/docker/Dockerfile");
    const out = execFileSync(
      "docker",
      ["run", "--rm", "--network", "none", choice.image, "cat", "/etc/arbor-tools"],
      {
        encoding: "utf8",
      },
    );
    expect(out).toBe("from the repository root\n");
  });
});
