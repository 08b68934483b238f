import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { deriveCommand } from "./derive-command";

/** The offline model's commands run through a real /bin/sh, to prove the quoting holds for hostile text. */

const run = promisify(execFile);
const HOSTILE = `it's "quoted" $(echo pwned) \`id\` \\n 100% $HOME`;

async function sh(command: string, cwd: string) {
  return run("sh", ["-c", command], { cwd }).then(
    ({ stdout, stderr }) => ({ code: 0, stdout, stderr }),
    (error: { code: number; stdout: string; stderr: string }) => ({
      code: error.code,
      stdout: error.stdout,
      stderr: error.stderr,
    }),
  );
}

describe("derived commands under /bin/sh", () => {
  it("writes hostile content to a file byte for byte", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "arbor-offline-"));
    const { command } = deriveCommand(`create file "my notes.txt" with '${HOSTILE.replaceAll("'", "’")}'`);
    expect(await sh(command, dir)).toMatchObject({ code: 0 });
    expect(readFileSync(path.join(dir, "my notes.txt"), "utf8")).toBe(`${HOSTILE.replaceAll("'", "’")}\n`);
  });

  it("prints text literally", async () => {
    const { command } = deriveCommand(`print ${HOSTILE}`);
    expect(await sh(command, tmpdir())).toEqual({ code: 0, stdout: `${HOSTILE}\n`, stderr: "" });
  });

  it("explains on stderr and exits 2 when there is no command, even for hostile text", async () => {
    const result = await sh(deriveCommand(`do something with ${HOSTILE}`).command, tmpdir());
    expect(result.code).toBe(2);
    expect(result.stdout).toBe("");
    expect(result.stderr).toBe(
      `offline model: no explicit command in 'do something with ${HOSTILE}'; put the command in backticks, e.g. run \`npm test\`\n`,
    );
  });

  it("creates directories and lists them", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "arbor-offline-"));
    expect(await sh(deriveCommand("create directory src/lib").command, dir)).toMatchObject({ code: 0 });
    expect((await sh(deriveCommand("list files in src").command, dir)).stdout).toContain("lib");
  });
});
