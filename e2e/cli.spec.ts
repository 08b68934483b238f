import { statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { createProject, expectRunStatus, newUser, signUp } from "../testing/e2e/arbor";
import { arbor, arborInTerminal, cliHome, createApiToken } from "../testing/e2e/cli";
import { APP_PORT } from "../testing/e2e/ports";

/**
 * Issue #20: the `arbor` CLI against the real server (production build, real Docker sandbox, the
 * fake model over HTTP), with a token made in the browser. `touch` is not an allow-listed program,
 * so the default checkpoints ask before the command runs.
 */
const TASK = "run `touch made-by-cli.txt && ls made-by-cli.txt`";
const SERVER = `http://localhost:${APP_PORT}`;

test("a token made in the browser logs the CLI in; `arbor run` in a terminal asks, is approved with y, ends VERIFIED (exit 0); history shows the tree", async ({
  page,
}) => {
  await signUp(page, newUser("cli"));
  await createProject(page, "CLI demo");
  const token = await createApiToken(page, { name: "laptop", role: "member" });
  const home = cliHome();

  const login = await arbor(home, ["login", "--url", SERVER, "--token", token]);
  expect(login.stderr).toBe("");
  expect(login.code).toBe(0);
  expect(login.stdout).toContain('with the token "laptop" (member in');
  expect(statSync(path.join(home, "credentials.json")).mode & 0o777).toBe(0o600);

  const run = await arborInTerminal(
    home,
    ["run", TASK, "--project", "CLI demo"],
    [{ prompt: "Approve? [y]es / [n]o / [a]bort / [e]dit:", reply: "y\r" }],
  );
  expect(run.stdout).toContain("(command) waits for you");
  expect(run.stdout).toContain("command: touch made-by-cli.txt && ls made-by-cli.txt");
  expect(run.answered).toBe(1);
  expect(run.stdout).toMatch(/\[VERIFIED[^\]]*\] /);
  expect(run.stdout).toContain("Run VERIFIED");
  expect(run.code).toBe(0);

  const [, sessionId = "", link = ""] = /Session (\S+) in CLI demo: (\S+)/.exec(run.stdout) ?? [];
  expect(sessionId).not.toBe("");
  const history = await arbor(home, ["history", "show", sessionId]);
  expect(history.code).toBe(0);
  expect(history.stdout).toContain(`Run `);
  expect(history.stdout).toContain("cycle 1: touch made-by-cli.txt && ls made-by-cli.txt");
  expect(history.stdout).toMatch(/exit 0 in \d+ ms\n\s+made-by-cli.txt/);
  expect(history.stdout).toContain("Run VERIFIED");

  // The browser shows the same run: same status, same action, same output.
  await page.goto(link);
  await expectRunStatus(page, "VERIFIED");
  await expect(page.getByTestId("cycle-action").first()).toHaveText(
    "touch made-by-cli.txt && ls made-by-cli.txt",
  );
  const list = await arbor(home, ["history", "list", "--project", "CLI demo"]);
  expect(list.stdout).toMatch(new RegExp(`${sessionId}\\s+\\S+\\s+VERIFIED`));
});

test("with --ci and nothing pre-approved, the run stops at the command approval with exit 5; --approve lets it through; a revoked token is refused (exit 6)", async ({
  page,
}) => {
  await signUp(page, newUser("ci"));
  await createProject(page, "CI demo");
  const token = await createApiToken(page, { name: "ci job", role: "member" });
  const home = cliHome();
  expect((await arbor(home, ["login", "--url", SERVER, "--token", token])).code).toBe(0);

  const stopped = await arbor(home, ["run", TASK, "--project", "CI demo", "--ci"]);
  expect(stopped.stderr).toContain("(command) waits for you");
  expect(stopped.stderr).toContain("Stopping the run: nobody is here to answer");
  expect(stopped.stderr).toContain("--approve=command");
  expect(stopped.code).toBe(5);
  const link = /Session \S+ in CI demo: (\S+)/.exec(stopped.stdout)?.[1] ?? "";
  await page.goto(link);
  await expectRunStatus(page, "STOPPED");

  const approved = await arbor(home, [
    "run",
    TASK,
    "--project",
    "CI demo",
    "--ci",
    "--approve=command",
    "--json",
  ]);
  const lines = approved.stdout
    .trim()
    .split("\n")
    .map((line) => JSON.parse(line) as { type: string; status?: string; exitCode?: number });
  expect(lines[0]?.type).toBe("started");
  expect(lines.at(-1)).toMatchObject({ type: "result", status: "VERIFIED", exitCode: 0 });
  expect(approved.stderr).toContain("pre-approved by --approve");
  expect(approved.code).toBe(0);

  await page.goto("/projects");
  await page.getByTestId("team-members-link").first().click();
  await page
    .getByTestId("api-token")
    .filter({ hasText: "ci job" })
    .getByRole("button", { name: "Revoke" })
    .click();
  await expect(page.getByTestId("api-token").filter({ hasText: "ci job" })).toHaveAttribute(
    "data-revoked",
    "true",
  );
  const refused = await arbor(home, ["status"]);
  expect(refused.stderr).toContain('The API token "ci job" was revoked. Create a new one.');
  expect(refused.code).toBe(6);
});

test("`arbor chat` answers from the project in Chat mode; `arbor run --mode chat` ends ANSWERED with exit 2, never 0", async ({
  page,
}) => {
  await signUp(page, newUser("chat"));
  await createProject(page, "Chat CLI");
  const token = await createApiToken(page, { name: "chat", role: "viewer" });
  const home = cliHome();
  expect((await arbor(home, ["login", "--url", SERVER, "--token", token])).code).toBe(0);

  // A viewer token watches but cannot start anything: refused with the role's reason, exit 6.
  const refused = await arbor(home, ["chat", "-p", "Chat CLI"], "What does `README.md` say?\n/exit\n");
  expect(refused.stderr).toContain("Viewers can watch but not start or stop runs");
  expect(refused.code).toBe(6);

  const member = await createApiToken(page, { name: "chat member", role: "member" });
  expect((await arbor(home, ["login", "--url", SERVER, "--token", member])).code).toBe(0);
  const chatted = await arbor(home, ["chat", "-p", "Chat CLI"], "What does `README.md` say?\n/exit\n");
  expect(chatted.stdout).toContain("README.md begins with: # Chat CLI");
  expect(chatted.code).toBe(0);

  const answered = await arbor(home, [
    "run",
    "What does `README.md` say?",
    "-p",
    "Chat CLI",
    "--mode",
    "chat",
    "--ci",
  ]);
  expect(answered.stdout).toContain("Run ANSWERED");
  expect(answered.code).toBe(2);
});

test("`arbor run --no-wait` returns at once; `arbor status` lists the waiting command; `arbor approve` lets the run end VERIFIED", async ({
  page,
}) => {
  await signUp(page, newUser("later"));
  await createProject(page, "Later demo");
  const token = await createApiToken(page, { name: "later", role: "member" });
  const home = cliHome();
  expect((await arbor(home, ["login", "--url", SERVER, "--token", token])).code).toBe(0);

  const started = await arbor(home, ["run", TASK, "-p", "Later demo", "--no-wait", "--json"]);
  expect(started.code).toBe(0);
  const { sessionId, url } = JSON.parse(started.stdout.trim()) as { sessionId: string; url: string };

  let approvalId = "";
  await expect(async () => {
    const status = await arbor(home, ["status", "--json"]);
    const inbox = (
      JSON.parse(status.stdout) as {
        inbox: { items: { approvalId: string; sessionId: string; kind: string }[] };
      }
    ).inbox;
    const waiting = inbox.items.find((item) => item.sessionId === sessionId && item.kind === "command");
    expect(waiting).toBeDefined();
    approvalId = waiting?.approvalId ?? "";
  }).toPass({ timeout: 60_000 });
  const text = await arbor(home, ["status"]);
  expect(text.stdout).toContain(`${approvalId} (command) in Later demo`);
  expect(text.stdout).toContain('Token "later": member in');

  const approved = await arbor(home, ["approve", approvalId]);
  expect(approved.stdout).toContain(`Approved ${approvalId}.`);
  expect(approved.code).toBe(0);
  await page.goto(url);
  await expectRunStatus(page, "VERIFIED");
});

test("the user file's server keys go with each run: it asks before every command, names the model, lowers a limit; a looser value is ignored and reported", async ({
  page,
}) => {
  await signUp(page, newUser("userfile"));
  await createProject(page, "User file");
  const token = await createApiToken(page, { name: "user file", role: "member" });
  const home = cliHome();
  expect((await arbor(home, ["login", "--url", SERVER, "--token", token])).code).toBe(0);
  const file = path.join(home, "config.yaml");

  // A bad value stops the CLI before anything starts, naming the file and the key.
  writeFileSync(file, "limits:\n  maxIterations: 0\n");
  const refused = await arbor(home, ["run", "run `ls`", "-p", "User file", "--ci"]);
  expect(refused.stderr).toContain(`${file}: limits.maxIterations:`);
  expect(refused.stdout).toBe("");
  expect(refused.code).toBe(1);

  // ask-always over the default (which lets the read-only `ls` run unasked), a lower limit, a higher one.
  writeFileSync(
    file,
    "checkpoints:\n  commands: ask-always\nlimits:\n  maxIterations: 3\n  maxDepth: 49\nmodel:\n  name: file-model\n",
  );
  const listed = await arbor(home, ["config", "list", "--server", "-p", "User file"]);
  expect(listed.stdout).toContain(`checkpoints.commands = ask-always  (${file})`);
  expect(listed.stdout).toContain(`limits.maxIterations = 3  (${file})`);
  expect(listed.stdout).toContain(`model.modelName = file-model  (${file})`);
  expect(listed.stdout).toContain(
    `! limits.maxDepth = 49 in ${file} is ignored: higher than the server's 10: your CLI config (~/.config/arbor/config.yaml) may only lower it`,
  );

  const stopped = await arbor(home, ["run", "run `ls`", "-p", "User file", "--ci"]);
  expect(stopped.stderr).toContain("(command) waits for you");
  expect(stopped.stdout).toContain(
    "settings from your CLI config (~/.config/arbor/config.yaml): model.name = file-model; checkpoints.commands = ask-always; limits.maxDepth = 49; limits.maxIterations = 3",
  );
  expect(stopped.stdout).toContain("! limits.maxDepth = 49 is ignored: higher than the server's 10");
  expect(stopped.code).toBe(5);

  const sessionId = /Session (\S+) in User file/.exec(stopped.stdout)?.[1] ?? "";
  const history = await arbor(home, ["history", "show", sessionId]);
  expect(history.stdout).toContain("settings from your CLI config (~/.config/arbor/config.yaml)");
  expect(history.stdout).toContain("! limits.maxDepth = 49 is ignored");

  await page.goto(/Session \S+ in User file: (\S+)/.exec(stopped.stdout)?.[1] ?? "");
  await expectRunStatus(page, "STOPPED");
  const shown = page.getByTestId("run-cli-config");
  await expect(shown).toContainText("Settings from your CLI config (~/.config/arbor/config.yaml)");
  await expect(shown).toContainText("limits.maxIterations = 3");
  await expect(page.getByTestId("run-cli-config-ignored")).toContainText("limits.maxDepth = 49 is ignored");
  await expect(page.getByTestId("message-model").first()).toContainText("file-model");
});
