import { afterAll, describe, expect, it } from "vitest";
import { DockerSandboxProvider } from "@/server/sandbox";
import type { Sandbox } from "@/server/sandbox/types";
import { silentLogger } from "@/testing/harness/fakes";
import { makeBareRepo } from "@/testing/sandbox/docker";

/**
 * Issue #16.1: the home directory is writable by the agent's commands, so a line planted in a shell
 * start-up file there ran when a person opened the terminal. Real Docker, the real terminal: files
 * the agent could have written in /home/arbor never run, and the shell still works.
 */
const provider = new DockerSandboxProvider({ logger: silentLogger, instance: `term-start-${process.pid}` });
let box: Sandbox | undefined;

afterAll(async () => {
  await box?.dispose();
});

const PLANTED = {
  ".bashrc": "touch /tmp/planted-bashrc",
  ".profile": "touch /tmp/planted-profile",
  ".bash_profile": "touch /tmp/planted-bash-profile",
  ".bash_login": "touch /tmp/planted-bash-login",
  ".gitconfig": "[core]\n\tfsmonitor = touch /tmp/planted-gitconfig",
};

describe("the terminal reads no start-up file from the writable home", () => {
  it("runs nothing planted in ~/.bashrc, ~/.profile, ~/.bash_profile, ~/.bash_login or ~/.gitconfig", async () => {
    box = await provider.create({ sessionId: `term-start-${process.pid}`, repoPath: makeBareRepo(true) });
    for (const [file, line] of Object.entries(PLANTED))
      await box.exec(`cat >> ~/${file}`, { stdin: `${line}\n` });
    // The plant itself works: a login shell that reads these files creates the marker.
    expect((await box.exec("bash -lic true; ls /tmp")).stdout).toContain("planted-bash-profile");
    await box.exec("rm -f /tmp/planted-*");

    const terminal = await provider.openTerminal(box.sessionId, { cols: 80, rows: 24 });
    let output = "";
    terminal.onData((chunk) => {
      output += chunk.toString("utf8");
    });
    terminal.write("echo ready-$((40 + 2)); git status --short\n");
    for (let i = 0; i < 100 && !output.includes("ready-42"); i += 1)
      await new Promise((resolve) => setTimeout(resolve, 100));
    await new Promise((resolve) => setTimeout(resolve, 500));
    await terminal.close();
    expect(output).toContain("ready-42");
    // The prompt people know (the image's /etc/bash.bashrc sets it).
    expect(output).toContain("arbor@sandbox:/workspace$");
    expect((await box.exec("ls /tmp")).stdout).not.toMatch(/planted-/);
  }, 120_000);

  it("Arbor's command runner reads no Python start-up file from the home directory", async () => {
    if (!box) throw new Error("the first test creates the sandbox");
    const site = "~/.local/lib/python3.11/site-packages";
    await box.exec(`mkdir -p ${site} && cat > ${site}/planted.pth`, {
      stdin: "import os; os.system('touch /tmp/planted-pth')\n",
    });
    // The plant itself works: a plain python3 runs it.
    expect((await box.exec("python3 -c pass; ls /tmp")).stdout).toContain("planted-pth");
    await box.exec("rm -f /tmp/planted-*");
    // A second provider starts its own persistent runner in the same container, as after a restart.
    const again = new DockerSandboxProvider({ logger: silentLogger, instance: `term-start-${process.pid}` });
    const attached = await again.get(box.sessionId);
    expect((await attached?.exec("echo ran"))?.stdout).toBe("ran\n");
    expect((await box.exec("ls /tmp")).stdout).not.toMatch(/planted-/);
  }, 60_000);
});
