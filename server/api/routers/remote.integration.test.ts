import { execFileSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { appRouter } from "@/server/api/root";
import { env } from "@/server/env";
import { openedKeys } from "@/server/events/opened-keys";
import { EventStore } from "@/server/events/store";
import type { PrismaClient } from "@/server/generated/prisma/client";
import { createSecretBox } from "@/server/settings/secret-box";
import { createTestDb } from "@/testing/db/test-db";
import { startTestGitServer, type TestGitServer } from "@/testing/git-server/git-server";
import { type RecordedPullRequest, startFakeGitHub } from "@/testing/github-api/fake-pulls";
import { startTestSshServer, type TestSshServer } from "@/testing/ssh-server/ssh-server";

const app = vi.hoisted(() => ({ current: {} as Record<string, unknown> }));
vi.mock("@/server/app-context", () => ({ appContext: () => app.current }));

/**
 * A project's upstream remote (issue #21.3) against a real git server on loopback (nginx, fcgiwrap,
 * `git http-backend`, basic auth): import with the token, push a session's branch, a refused push
 * (non-fast-forward, a protected branch) with git's reason, and a pull request whose request is
 * validated against GitHub's OpenAPI description. The token never appears in an answer or an event.
 */
let db: PrismaClient;
let cleanup: () => Promise<void>;
let server: TestGitServer;
let sshd: TestSshServer;
let github: Awaited<ReturnType<typeof startFakeGitHub>>;
let work: string;

beforeAll(async () => {
  ({ db, cleanup } = await createTestDb());
  server = await startTestGitServer();
  sshd = await startTestSshServer();
  github = await startFakeGitHub();
  (env as { ARBOR_GITHUB_API_URL: string }).ARBOR_GITHUB_API_URL = github.url;
  work = await mkdtemp(path.join(tmpdir(), "arbor-remote-test-"));
}, 30_000);
afterAll(async () => {
  await github?.close();
  await server?.stop();
  await sshd?.stop();
  await cleanup?.();
  await rm(work, { recursive: true, force: true });
});
beforeEach(() => {
  app.current = { box: createSecretBox(randomBytes(32)), store: new EventStore(db, openedKeys) };
});

const git = (args: string[], cwd?: string) =>
  execFileSync("git", ["-c", "user.name=T", "-c", "user.email=t@localhost", ...args], { cwd, stdio: "pipe" })
    .toString()
    .trim();

let seeded = 0;
async function owner() {
  seeded += 1;
  const user = await db.user.create({ data: { email: `o${seeded}@example.com`, name: `Owner ${seeded}` } });
  const team = await db.team.create({ data: { name: `Team ${seeded}`, personal: true } });
  await db.membership.create({ data: { userId: user.id, teamId: team.id, role: "owner" } });
  return { user, team, caller: appRouter.createCaller({ db, user }) };
}

type ImportCredential = Parameters<
  ReturnType<typeof appRouter.createCaller>["project"]["create"]
>[0]["credential"];

/**
 * A project imported from the git server (with the token, or over SSH with a deploy key), and a session
 * whose work is saved on its branch.
 */
async function importedWithSavedWork(
  name: string,
  over: { sourceUrl: string; credential: ImportCredential } | null = null,
) {
  await server.createRepository(name);
  const { user, team, caller } = await owner();
  const project = await caller.project.create({
    teamId: team.id,
    name,
    sourceUrl: over?.sourceUrl ?? server.urlOf(name),
    credential: over?.credential ?? {
      action: "set",
      kind: "token",
      username: server.user,
      token: server.token,
    },
  });
  const { repoPath } = await db.project.findUniqueOrThrow({ where: { id: project.id } });
  const branch = `arbor/${name}-work`;
  const session = await db.session.create({
    data: { projectId: project.id, createdById: user.id, title: `Add the ${name} greeting`, branch },
  });
  const clone = path.join(work, `${name}-clone`);
  git(["clone", "-q", repoPath, clone]);
  git(["checkout", "-q", "-b", branch], clone);
  await writeFile(path.join(clone, "hello.txt"), "hello\n");
  git(["add", "hello.txt"], clone);
  git(["commit", "-q", "-m", "Add hello.txt"], clone);
  git(["push", "-q", "origin", `HEAD:refs/heads/${branch}`], clone);
  const commit = git(["rev-parse", "HEAD"], clone);
  const store = app.current.store as EventStore;
  await store.append(session.id, [
    {
      type: "work-saved",
      branch,
      commit,
      files: ["hello.txt"],
      by: user.name ?? "",
      secretsOverridden: false,
    },
  ]);
  return { caller, project, session, branch, commit, repoPath, store };
}

async function eventsText(sessionId: string): Promise<string> {
  const events = await db.event.findMany({ where: { sessionId } });
  return JSON.stringify(events);
}

describe("the team's git remote", () => {
  it("imports with the token (and not without it); the remote shows only that a credential is set", async () => {
    await server.createRepository("private");
    const { team, caller } = await owner();
    await expect(
      caller.project.create({ teamId: team.id, name: "no token", sourceUrl: server.urlOf("private") }),
    ).rejects.toThrow(/Could not import the repository/);

    const project = await caller.project.create({
      teamId: team.id,
      name: "with token",
      sourceUrl: server.urlOf("private"),
      credential: { action: "set", kind: "token", username: server.user, token: server.token },
    });
    const remote = await caller.remote.get({ projectId: project.id });
    expect(remote).toMatchObject({
      url: server.urlOf("private"),
      provider: "git",
      credential: { kind: "token", set: true, hint: server.token.slice(-4), username: server.user },
    });
    expect(JSON.stringify(remote)).not.toContain(server.token);
    const row = await db.projectRemote.findUniqueOrThrow({ where: { projectId: project.id } });
    expect(row.credentialSealed).not.toContain(server.token);
    // Nothing of the credential is written into the project's repository.
    const { repoPath } = await db.project.findUniqueOrThrow({ where: { id: project.id } });
    expect(git(["-C", repoPath, "config", "--list"])).not.toContain(server.token);
    expect(git(["-C", repoPath, "log", "--format=%s", "main"])).toBe("Initial commit");

    // A token in the URL is refused: it would be stored and shown with it.
    await expect(
      caller.remote.save({
        projectId: project.id,
        remote: {
          url: server.urlOf("private").replace("http://", `http://u:${server.token}@`),
          provider: null,
          credential: { action: "keep" },
        },
      }),
    ).rejects.toThrow(/Leave the token out of the URL/);
    // A new URL with the stored token kept is refused: the token never goes to a new address.
    await expect(
      caller.remote.save({
        projectId: project.id,
        remote: { url: "https://elsewhere.example/o/r.git", provider: null, credential: { action: "keep" } },
      }),
    ).rejects.toThrow(/enter the credential again/);
  }, 60_000);

  it("pushes the session's saved branch; a non-fast-forward and a protected branch are refused with git's reason", async () => {
    const { caller, session, branch, commit } = await importedWithSavedWork("pushed");
    const pushed = await caller.remote.push({ sessionId: session.id });
    expect(pushed).toMatchObject({ status: "pushed", branch, commit });
    const upstream = path.join(server.dir, "repos", "pushed.git");
    expect(git(["-C", upstream, "rev-parse", `refs/heads/${branch}`])).toBe(commit);

    // Someone else moves the remote's branch on: the push is refused, nothing is forced.
    const other = path.join(work, "pushed-other");
    git(["clone", "-q", upstream, other]);
    git(["checkout", "-q", branch], other);
    git(["commit", "-q", "--allow-empty", "-m", "someone else's commit"], other);
    git(["push", "-q", "origin", branch], other);
    const theirs = git(["rev-parse", "HEAD"], other);
    const { repoPath } = await db.project.findUniqueOrThrow({ where: { id: session.projectId } });
    const local = path.join(work, "pushed-local");
    git(["clone", "-q", "--branch", branch, repoPath, local]);
    git(["commit", "-q", "--allow-empty", "-m", "more work"], local);
    git(["push", "-q", "origin", `HEAD:${branch}`], local);

    const refused = await caller.remote.push({ sessionId: session.id });
    expect(refused.status).toBe("refused");
    expect(refused).toMatchObject({
      reason: expect.stringMatching(/non-fast-forward\). Nothing was force-pushed/),
    });
    expect(git(["-C", upstream, "rev-parse", `refs/heads/${branch}`])).toBe(theirs);

    // A protected branch: the remote's pre-receive hook says why, and that reason comes back.
    await server.protect("pushed", branch);
    // The session's branch takes the remote's commit and adds one: a fast-forward the hook still refuses.
    git(["fetch", "-q", upstream, branch], local);
    git(["reset", "-q", "--hard", "FETCH_HEAD"], local);
    git(["commit", "-q", "--allow-empty", "-m", "after the remote's commit"], local);
    git(["push", "-q", "--force", "origin", `HEAD:${branch}`], local);
    const protectedPush = await caller.remote.push({ sessionId: session.id });
    expect(protectedPush.status).toBe("refused");
    expect(protectedPush).toMatchObject({
      reason: expect.stringMatching(
        /pre-receive hook declined.*protected branch: open a pull request instead/,
      ),
    });

    const text = await eventsText(session.id);
    expect(text).toContain("work-pushed");
    expect(text).toContain("work-push-refused");
    expect(text).not.toContain(server.token);
  }, 60_000);

  it("opens a pull request whose request GitHub's OpenAPI description accepts, built from the session", async () => {
    const { caller, project, session, branch } = await importedWithSavedWork("pulls");
    // A GitHub remote: the same server, marked as GitHub, with the same token.
    await caller.remote.save({
      projectId: project.id,
      remote: { url: server.urlOf("pulls"), provider: "github", credential: { action: "keep" } },
    });
    await expect(caller.remote.openPullRequest({ sessionId: session.id })).rejects.toThrow(
      /Push the branch first/,
    );
    await caller.remote.push({ sessionId: session.id });

    const opened = await caller.remote.openPullRequest({ sessionId: session.id });
    expect(opened.url).toMatch(/\/git\/pulls\/pull\/\d+$/);
    const sent = github.requests.at(-1) as RecordedPullRequest;
    expect(sent).toMatchObject({ owner: "git", repo: "pulls", authorization: `Bearer ${server.token}` });
    expect(sent.body).toMatchObject({
      title: "Add the pulls greeting",
      head: branch,
      base: "main",
      draft: false,
    });
    expect(sent.body.body).toContain(`/projects/${project.id}/sessions/${session.id}/replay`);
    const text = await eventsText(session.id);
    expect(text).toContain("pull-request-opened");
    expect(text).not.toContain(server.token);
  }, 60_000);

  it("over SSH with a deploy key (a real sshd): imports, pins the host key, pushes, is refused a protected branch and a changed host key", async () => {
    const upstream = path.join(server.dir, "repos", "over-ssh.git");
    const sourceUrl = sshd.urlOf(upstream);
    const { caller, project, session, branch, commit, repoPath } = await importedWithSavedWork("over-ssh", {
      sourceUrl,
      credential: { action: "set", kind: "ssh-key", privateKey: sshd.deployKey },
    });
    // The clone pinned the server's host key, shown as its fingerprint (what `ssh-keygen -lf` prints).
    const remote = await caller.remote.get({ projectId: project.id });
    expect(remote).toMatchObject({ url: sourceUrl, credential: { kind: "ssh-key", set: true, hint: null } });
    expect(remote?.hostKeys).toEqual([expect.stringMatching(/^ssh-ed25519 SHA256:[A-Za-z0-9+/]{43}$/)]);

    expect(await caller.remote.push({ sessionId: session.id })).toMatchObject({ status: "pushed", commit });
    expect(git(["-C", upstream, "rev-parse", `refs/heads/${branch}`])).toBe(commit);

    // A protected branch: the hook's reason comes back over SSH too.
    await server.protect("over-ssh", branch);
    const local = path.join(work, "over-ssh-local");
    git(["clone", "-q", "--branch", branch, repoPath, local]);
    git(["commit", "-q", "--allow-empty", "-m", "more work"], local);
    git(["push", "-q", "origin", `HEAD:${branch}`], local);
    expect(await caller.remote.push({ sessionId: session.id })).toMatchObject({
      status: "refused",
      reason: expect.stringMatching(/protected branch: open a pull request instead/),
    });

    // The server comes back with another host key: refused before anything is sent, and said why.
    await sshd.restartWithNewHostKey();
    const impostor = await caller.remote.push({ sessionId: session.id });
    expect(impostor).toMatchObject({
      status: "refused",
      reason: expect.stringMatching(/host key is not the one pinned for this remote.*ssh-ed25519 SHA256:/s),
    });
    expect((await caller.remote.get({ projectId: project.id }))?.hostKeys).toEqual(remote?.hostKeys);
    // Entering the deploy key again is how an admin accepts the new key: the next push pins it.
    await caller.remote.save({
      projectId: project.id,
      remote: {
        url: sourceUrl,
        provider: null,
        credential: { action: "set", kind: "ssh-key", privateKey: sshd.deployKey },
      },
    });
    expect((await caller.remote.get({ projectId: project.id }))?.hostKeys).toEqual([]);
    expect(await caller.remote.push({ sessionId: session.id })).toMatchObject({ status: "refused" });
    const repinned = (await caller.remote.get({ projectId: project.id }))?.hostKeys;
    expect(repinned).toHaveLength(1);
    expect(repinned).not.toEqual(remote?.hostKeys);

    // The private key is nowhere but sealed: not in an answer, an event, the repository or sshd's log.
    const keyLine = sshd.deployKey.split("\n")[1] ?? "";
    expect(keyLine.length).toBeGreaterThan(20);
    for (const text of [
      await eventsText(session.id),
      JSON.stringify(await caller.remote.get({ projectId: project.id })),
      git(["-C", repoPath, "config", "--list"]),
      sshd.log(),
    ])
      expect(text).not.toContain(keyLine);
    expect(sshd.log()).toContain("Accepted publickey");
  }, 60_000);
});
