import { type ChildProcess, spawn } from "node:child_process";
import { createRequire } from "node:module";
import { createServer } from "node:net";
import { expect, test } from "@playwright/test";
import { createProject, newUser, signUp } from "../testing/e2e/arbor";

/**
 * Issue #21.2 in the browser: an owner puts a Streamable HTTP MCP server (the real
 * `@modelcontextprotocol/server-everything`, on this machine) on the project's allow-list, adds it on
 * the settings page and sees its tools listed, each asking a person by default. A URL off the list is
 * refused with a clear error. The calls themselves are in server/tools/mcp/mcp.integration.test.ts.
 */
let server: ChildProcess;
let port = 0;

test.beforeAll(async () => {
  port = await new Promise<number>((resolve, reject) => {
    const probe = createServer();
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const address = probe.address();
      probe.close(() => resolve(typeof address === "object" && address ? address.port : 0));
    });
  });
  const entry = createRequire(import.meta.url).resolve(
    "@modelcontextprotocol/server-everything/dist/index.js",
  );
  server = spawn(process.execPath, [entry, "streamableHttp"], {
    env: { ...process.env, PORT: String(port) },
    stdio: ["ignore", "ignore", "pipe"],
  });
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error("the MCP server did not start")), 20_000);
    server.stderr?.on("data", (chunk: Buffer) => {
      if (chunk.toString().includes("listening")) {
        clearTimeout(timer);
        resolve();
      }
    });
  });
});
test.afterAll(() => {
  server?.kill();
});

test("an owner adds an HTTP MCP server on the settings page and sees its tools", async ({ page }) => {
  test.setTimeout(120_000);
  await signUp(page, newUser("mcp"));
  const projectId = await createProject(page, "Tools");
  await page.goto(`/projects/${projectId}/settings`);
  const url = `http://localhost:${port}/mcp`;

  await page.getByTestId("mcp-name").fill("everything");
  await page.getByTestId("mcp-transport").selectOption("http");
  await page.getByTestId("mcp-target").fill(url);
  // Offered while looking too: there (and in Chat) only the tools marked Safe.
  await page.getByTestId("mcp-stages").selectOption("looking");
  await page.getByTestId("mcp-add").click();
  await expect(page.getByTestId("mcp-error")).toContainText("not on the project's network allow-list");

  await page.getByTestId("egress-allow-list").fill(`localhost:${port}`);
  await page.getByTestId("egress-save").click();
  await expect(page.getByTestId("settings-network")).toContainText("Saved.");
  await page.getByTestId("mcp-add").click();
  await expect(page.getByTestId("mcp-health-everything")).toContainText(/Running, \d+ tools/);
  await expect(page.getByTestId("mcp-seen-everything")).toContainText("last seen");
  await expect(page.getByTestId("mcp-server-everything")).toContainText("offered while acting and looking");
  const tools = page.getByTestId("mcp-tools-everything");
  await expect(tools).toContainText("mcp__everything__echo");
  await expect(tools.getByLabel("Risk of echo")).toHaveValue("moderate");
  await tools.getByLabel("Risk of echo").selectOption("safe");
  await expect(page.getByTestId("settings-mcp")).toContainText("New sessions use it.");
  await page.reload();
  await expect(page.getByTestId("mcp-tools-everything").getByLabel("Risk of echo")).toHaveValue("safe");
});
