import { execFileSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { type BrowserContext, expect, type Page, test } from "@playwright/test";
import pg from "pg";
import { sandboxOwnerLabel } from "../server/sandbox/instance-label";
import {
  createProject,
  expectRunStatus,
  newUser,
  openProjectSettings,
  openWorkspaceTab,
  settledTexts,
  signUp,
  startTask,
} from "../testing/e2e/arbor";
import { arbor, cliHome, createApiToken } from "../testing/e2e/cli";
import { CLUSTER_PORT, FAKE_MODEL_PORT } from "../testing/e2e/ports";
import {
  onSecondHost,
  SECOND_HOST,
  SECOND_HOST_ID,
  secondHostScript,
} from "../testing/e2e/second-docker-host";
import { screen, typeInTerminal } from "../testing/e2e/terminal";

/**
 * Arbor as a cluster (deploy/cluster.sh): a fresh PostgreSQL database, two instances of the production
 * build, nginx in front; the browser talks to the balancer. One cluster for the whole file (starting
 * it is most of the time), so the test that kills an instance runs last.
 *
 * Sandboxes on two Docker hosts: the local engine and a second dockerd in its own network namespace over
 * mutual TLS (deploy/docker-host.sh; its data directory, with the sandbox image copied in on first use,
 * is kept between runs). The second host is listed with `priority=1`, as an operator would list a
 * dedicated sandbox host with the app's own engine as the spare: every session lands there while it
 * answers, and on the local engine once it is stopped (the last test).
 */
const root = path.resolve(import.meta.dirname, "..");
const clusterDir = path.join(root, ".e2e/cluster");
const instancePort = (i: number) => CLUSTER_PORT + i;
let adminUrl = "";
let databaseUrl = "";
let database = "";

test.use({ baseURL: `http://localhost:${CLUSTER_PORT}` });
test.describe.configure({ mode: "serial", timeout: 180_000 });

function clusterScript(command: "start" | "stop", extraEnv: Record<string, string> = {}): string {
  return execFileSync("bash", ["deploy/cluster.sh", command], {
    cwd: root,
    encoding: "utf8",
    timeout: 240_000,
    stdio: ["ignore", "pipe", "inherit"],
    env: {
      ...process.env,
      ARBOR_CLUSTER_DIR: clusterDir,
      ARBOR_CLUSTER_PORT: String(CLUSTER_PORT),
      ARBOR_CLUSTER_INSTANCES: "2",
      DATABASE_URL: databaseUrl,
      ARBOR_MODEL_BASE_URL: `http://127.0.0.1:${FAKE_MODEL_PORT}/v1`,
      // A dead instance's runs are taken over within a few seconds (the default is 15 s).
      ARBOR_RUN_LEASE_MS: "5000",
      ...extraEnv,
    },
  });
}

async function sql<T extends pg.QueryResultRow>(text: string, values: unknown[] = []): Promise<T[]> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    return (await client.query<T>(text, values)).rows;
  } finally {
    await client.end();
  }
}

test.beforeAll(async () => {
  test.setTimeout(300_000);
  adminUrl =
    execFileSync("bash", ["deploy/postgres.sh"], { cwd: root, encoding: "utf8" }).trim().split("\n").at(-1) ??
    "";
  database = `arbor_e2e_cluster_${randomBytes(4).toString("hex")}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE "${database}"`);
  await admin.end();
  const url = new URL(adminUrl);
  url.pathname = `/${database}`;
  databaseUrl = url.toString();
  execFileSync("rm", ["-rf", clusterDir]);
  const secondHost = secondHostScript("start");
  // Sandboxes an earlier run left on the second engine (it was stopped under them) go first.
  const leftovers = onSecondHost("ps", "-aq", "--filter", "label=arbor.managed=true")
    .split("\n")
    .filter(Boolean);
  if (leftovers.length > 0) onSecondHost("rm", "-f", ...leftovers);
  // The sandbox image reaches a new host on its first session (save | load through the server, ≈ 30 s
  // or more here), longer than a test waits for a run. The fixture copies it here instead when the
  // second engine's kept data directory lacks this build of it (the first run on a machine, or after the
  // image was rebuilt: Arbor would re-copy it by ID on the first session, too slowly for a test's wait).
  const image = process.env.ARBOR_SANDBOX_IMAGE ?? "arbor-sandbox:latest";
  const idOf = (inspect: () => string) => {
    try {
      return inspect().trim();
    } catch {
      return null;
    }
  };
  const localId = idOf(() =>
    execFileSync("docker", ["image", "inspect", "-f", "{{.Id}}", image], { encoding: "utf8" }),
  );
  if (localId !== idOf(() => onSecondHost("image", "inspect", "-f", "{{.Id}}", image))) {
    execFileSync(
      "bash",
      [
        "-c",
        `docker save "$0" | docker -H unix:///run/${SECOND_HOST.ARBOR_DOCKER_HOST_NAME}/docker.sock load -q`,
        image,
      ],
      { stdio: ["ignore", "ignore", "inherit"], timeout: 240_000 },
    );
  }
  // Marked as Arbor's copy, as ensureImageOn marks its own (also a build an older fixture loaded): the
  // build it replaces after a rebuild is then a superseded copy, which the instances' start-up sweep and
  // image upkeep remove, instead of 765 MB left untagged on the engine after each rebuild.
  if (localId !== null) onSecondHost("tag", image, `arbor-copy:${localId.replace(/^sha256:/, "")}`);
  clusterScript("start", {
    ARBOR_DOCKER_HOSTS: `local,${secondHost}&priority=1`,
    // A stopped engine is noticed within a second or two (the default pings every 5 s).
    ARBOR_DOCKER_HOST_CHECK_MS: "1000",
  });
});

test.afterAll(async () => {
  if (databaseUrl) clusterScript("stop");
  // Stopped whatever happened (the host-loss test stops it too); its sandboxes go at the next start.
  secondHostScript("stop");
  // The sandboxes the instances made (scripts/e2e-cleanup.sh knows only the SQLite instances' labels).
  for (const i of [1, 2]) {
    const label = sandboxOwnerLabel({
      databaseUrl,
      dataDir: path.join(clusterDir, `instance-${i}`),
      cluster: true,
    });
    const ids = execFileSync(
      "docker",
      ["ps", "-aq", "--filter", "label=arbor.managed=true", "--filter", `label=arbor.instance=${label}`],
      { encoding: "utf8" },
    )
      .split("\n")
      .filter(Boolean);
    if (ids.length > 0) execFileSync("docker", ["rm", "-f", ...ids], { stdio: "ignore" });
  }
  if (!database) return;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`DROP DATABASE IF EXISTS "${database}" WITH (FORCE)`);
  await admin.end();
});

/** The signed-in cookies of the balancer's host, also for the instances' own address (127.0.0.1). */
async function shareCookiesWithInstances(context: BrowserContext): Promise<void> {
  const cookies = await context.cookies(`http://localhost:${CLUSTER_PORT}`);
  await context.addCookies(cookies.map(({ name, value }) => ({ name, value, url: "http://127.0.0.1" })));
}

test("two watchers on two instances share one terminal: same output, typing into the same shell", async ({
  page,
  context,
}) => {
  await signUp(page, newUser("cluster-term"));
  await createProject(page, "Cluster terminal");
  const sessionUrl = await startTask(page, "run `ls`");
  await expectRunStatus(page, "VERIFIED");
  const sessionPath = new URL(sessionUrl).pathname;
  await shareCookiesWithInstances(context);

  // Straight to each instance (the balancer would pick one for us): the terminal is opened on 1…
  const first = await context.newPage();
  await first.goto(`http://127.0.0.1:${instancePort(1)}${sessionPath}`);
  await openWorkspaceTab(first, "terminal");
  await first.getByRole("button", { name: "Open terminal" }).click();
  await expect(first.getByTestId("terminal-view")).toHaveAttribute("data-state", "open");
  await expect(screen(first)).toContainText("/workspace$");
  await typeInTerminal(first, "echo from-one-$((40+2))");
  await expect(screen(first)).toContainText("from-one-42");
  const holders = await sql<{ address: string }>(
    "SELECT address FROM arbor_queue.terminal_owner WHERE session_id = $1",
    [sessionPath.split("/").at(-1)],
  );
  expect(holders.map((row) => row.address)).toEqual([`http://127.0.0.1:${instancePort(1)}`]);

  // …and watched and typed into from 2, which relays to 1.
  const second = await context.newPage();
  await second.goto(`http://127.0.0.1:${instancePort(2)}${sessionPath}`);
  await openWorkspaceTab(second, "terminal");
  await expect(second.getByTestId("terminal-view")).toHaveAttribute("data-state", "open");
  await second.getByTestId("terminal-screen").scrollIntoViewIfNeeded();
  await expect(screen(second)).toContainText("from-one-42");
  await typeInTerminal(second, "echo from-two-$((6*7)) $$");
  await expect(screen(second)).toContainText(/from-two-42 \d+/);
  await expect(screen(first)).toContainText(/from-two-42 \d+/);
  // The same shell: `$$` typed on instance 2 is the pid of the shell instance 1 started.
  await typeInTerminal(first, "echo pid-$$");
  const pidLine = async (p: Page) => /pid-(\d+)/.exec((await screen(p).textContent()) ?? "")?.[1];
  // Both polled: a background page paints on a throttled clock, so on a loaded machine it lags.
  await expect.poll(() => pidLine(second)).toMatch(/^\d+$/);
  await expect.poll(() => pidLine(first)).toMatch(/^\d+$/);
  expect(await screen(second).textContent()).toContain(`from-two-42 ${await pidLine(first)}`);
  await first.close();
  await second.close();
});

test("the CLI through the balancer: a token made in the browser, `arbor run --approve` runs a task to VERIFIED", async ({
  page,
}) => {
  await signUp(page, newUser("cluster-cli"));
  await createProject(page, "Cluster CLI");
  const token = await createApiToken(page, { name: "cluster laptop", role: "member" });
  const home = cliHome();
  const balancer = `http://localhost:${CLUSTER_PORT}`;
  expect((await arbor(home, ["login", "--url", balancer, "--token", token])).code).toBe(0);
  const run = await arbor(home, [
    "run",
    "run `touch via-balancer.txt && ls via-balancer.txt`",
    "--project",
    "Cluster CLI",
    "--approve=command",
  ]);
  expect(run.stderr).toContain("pre-approved by --approve");
  expect(run.stdout).toContain("Run VERIFIED");
  expect(run.code).toBe(0);
  // Its sandbox is on the second host (priority=1), which is where the run's file is.
  const sessionId = /Session (\S+) in Cluster CLI/.exec(run.stdout)?.[1] ?? "";
  expect(await recordedHost(sessionId)).toBe(SECOND_HOST_ID);
  expect(onSecondHost("exec", `arbor-session-${sessionId}`, "ls", "/workspace/via-balancer.txt")).toContain(
    "via-balancer.txt",
  );
});

/** The Docker host recorded on the session when it was placed. */
async function recordedHost(sessionId: string): Promise<string | null> {
  const rows = await sql<{ dockerHost: string | null }>('SELECT "dockerHost" FROM "Session" WHERE id = $1', [
    sessionId,
  ]);
  return rows[0]?.dockerHost ?? null;
}

test("kill -9 of the instance driving a run on the second Docker host: a watcher on the other instance sees its live output, the other instance resumes it, the live view keeps going, nothing twice", async ({
  page,
  context,
}) => {
  await signUp(page, newUser("cluster-run"));
  await createProject(page, "Cluster failover");
  // Its agent may reach the package registries, through the proxy of whichever instance drives it.
  await openProjectSettings(page);
  await page.getByTestId("egress-agent-mode").selectOption("registries");
  await page.getByTestId("egress-save").click();
  await expect(page.getByTestId("settings-network")).toContainText("Saved.");
  const sessionUrl = await startTask(
    page,
    "run `echo tick 1 && echo tick 2 && sleep 8 && echo once >> marker.txt`",
  );
  const sessionId = new URL(sessionUrl).pathname.split("/").at(-1) ?? "";
  await page.getByTestId("approve").click();

  // The driver, from the lease table (owner = host:pid:random, taken when the run started).
  const pids = [1, 2].map((i) =>
    execFileSync("cat", [path.join(clusterDir, `instance-${i}`, "pid")], { encoding: "utf8" }).trim(),
  );
  const leaseOwner = async () =>
    (
      await sql<{ owner: string | null }>("SELECT owner FROM arbor_queue.run_lease WHERE session_id = $1", [
        sessionId,
      ])
    )[0]?.owner ?? null;
  const driver = (await leaseOwner())?.split(":")[1];
  expect(pids).toContain(driver);
  const survivor = pids.indexOf(String(driver)) === 0 ? 2 : 1;
  expect(await recordedHost(sessionId)).toBe(SECOND_HOST_ID);

  // A watcher straight on the instance that does not drive the run: the command's live lines reach it
  // while the command still runs (relayed over NOTIFY; the live-output box exists only until the cycle's
  // result is in the log).
  await shareCookiesWithInstances(context);
  const watcher = await context.newPage();
  await watcher.goto(`http://127.0.0.1:${instancePort(survivor)}${new URL(sessionUrl).pathname}`);

  // Mid-command: its first lines are in the shared output-so-far file.
  const outputSoFar = path.join(clusterDir, "shared", "output-so-far");
  await expect
    .poll(
      () =>
        readdirSync(outputSoFar)
          .map((file) => readFileSync(path.join(outputSoFar, file), "utf8"))
          .join("\n"),
      { timeout: 30_000, intervals: [200] },
    )
    .toContain("tick 2");
  await expect(watcher.getByTestId("cycle-live-output")).toContainText("tick 2", { timeout: 8_000 });
  expect(await leaseOwner()).toContain(`:${driver}:`); // still driven by the other instance
  await watcher.close();
  execFileSync("kill", ["-9", String(driver)]);

  // No reload: the page's live streams reconnect through the balancer to the surviving instance.
  const card = page.getByTestId("approval-card");
  await expect(card.locator("h2")).toHaveText("Run this command again?", { timeout: 60_000 });
  await expect(card.getByTestId("interrupted-output")).toContainText("tick 2");
  await card.getByTestId("approve").click();
  await expectRunStatus(page, "VERIFIED");
  // The surviving instance took the run over (its log says so) once the dead one's lease ran out.
  const survivorLog = execFileSync("cat", [path.join(clusterDir, `instance-${survivor}`, "server.log")], {
    encoding: "utf8",
  });
  expect(survivorLog).toContain("resumed runs of an instance that stopped renewing its leases");
  expect(await leaseOwner()).toBeNull(); // released when the run ended

  // The side effect happened once: the write ran to its end only in the re-run the person approved.
  const marker = onSecondHost("exec", `arbor-session-${sessionId}`, "cat", "/workspace/marker.txt");
  expect(marker).toBe("once\n");

  // The log: sequence numbers 1..n, no gap, no duplicate; one start, one resume.
  const events = await sql<{ seq: number; type: string }>(
    'SELECT seq, type FROM "Event" WHERE "sessionId" = $1 ORDER BY seq',
    [sessionId],
  );
  expect(events.map((event) => event.seq)).toEqual(events.map((_, index) => index + 1));
  expect(events.filter((event) => event.type === "run-started")).toHaveLength(1);
  expect(events.filter((event) => event.type === "run-resumed")).toHaveLength(1);

  // What the live view built across the failover equals a fresh load of the log.
  const live = await settledTexts(page);
  await page.reload();
  await expectRunStatus(page, "VERIFIED");
  expect(await settledTexts(page)).toEqual(live);
  expect(live.join("\n")).toContain("COMMAND echo tick 1");

  // The sandbox was made on the dead instance's egress network on the second host: the survivor moves
  // it to its own, and its commands use its proxy there (the dead one's still runs with old rules).
  await startTask(page, "run `npm view left-pad@1.3.0 version`");
  await page.getByTestId("approve").click();
  await expect(page.getByTestId("cycle-output").filter({ hasText: /^1\.3\.0/ })).toHaveCount(1);
  await expectRunStatus(page, "VERIFIED");
  const connections = page.getByTestId("environment-panel").getByTestId("environment-connections");
  await connections.locator("summary").click();
  await expect(connections).toContainText("registry.npmjs.org:443");
});

test("host loss: the second dockerd stops, its session shows SANDBOX LOST, the restart from the page and a new session land on the first host", async ({
  page,
}) => {
  // After the failover above: one instance left, through the balancer. A session on the second host…
  await signUp(page, newUser("cluster-lost"));
  const projectId = await createProject(page, "Cluster host loss");
  const lostUrl = await startTask(page, "run `ls`");
  await expectRunStatus(page, "VERIFIED");
  const lostId = new URL(lostUrl).pathname.split("/").at(-1) ?? "";
  expect(await recordedHost(lostId)).toBe(SECOND_HOST_ID);
  // A terminal is open there.
  await openWorkspaceTab(page, "terminal");
  await page.getByRole("button", { name: "Open terminal" }).click();
  await expect(page.getByTestId("terminal-view")).toHaveAttribute("data-state", "open");

  // …whose engine stops: the page says so, live, with what a restart starts from, and the terminal
  // says where its shell went (not "the shell exited").
  secondHostScript("stop");
  const lost = page.getByTestId("sandbox-lost");
  await expect(lost).toBeVisible({ timeout: 30_000 });
  await expect(lost.getByTestId("session-shown-status")).toHaveText("SANDBOX LOST");
  await expect(lost).toContainText(SECOND_HOST_ID);
  await expect(lost).toContainText("A restart starts from the snapshot");
  await expect(page.getByTestId("terminal-lost")).toContainText(
    `The sandbox was lost with its Docker host ${SECOND_HOST_ID}`,
  );
  await expect(page.getByTestId("terminal-open")).toHaveCount(0);

  await lost.getByTestId("sandbox-restart").click();
  await expect(page.getByTestId("sandbox-restarted")).toContainText(`on local (its host ${SECOND_HOST_ID}`, {
    timeout: 60_000,
  });
  await expect(lost).toBeHidden();
  // The restarted sandbox takes a shell again.
  await expect(page.getByTestId("terminal-open")).toBeVisible();
  expect(await recordedHost(lostId)).toBe("local");

  // A new session goes to the host that answers, the spare one.
  await page.goto(`/projects/${projectId}`);
  const freshUrl = await startTask(page, "run `ls`");
  await expectRunStatus(page, "VERIFIED");
  expect(await recordedHost(new URL(freshUrl).pathname.split("/").at(-1) ?? "")).toBe("local");
});
