import { describe, expect, it } from "vitest";
import { CheckNotRun, type Exec } from "@/server/contract/verify";
import type { Criterion } from "@/server/domain/contract/criteria";
import type { ExecResult } from "@/server/domain/sandbox-port";
import { commandBinding } from "../decide/contract-judgment";
import { checkContract } from "./contract-check";

function result(exitCode: number, stderr = ""): ExecResult {
  return { exitCode, stdout: "", stderr, timedOut: false, truncated: false, durationMs: 1 };
}

/** A sandbox where only the listed commands exist; records what ran. */
function fakeExec(outcomes: Record<string, ExecResult>): Exec & { ran: string[] } {
  const ran: string[] = [];
  const exec = async (command: string) => {
    ran.push(command);
    return outcomes[command] ?? result(127, `bash: line 1: ${command.split(" ")[0]}: command not found`);
  };
  return Object.assign(exec, { ran });
}

const npmTest: Criterion = { kind: "TESTS_PASS", command: "npm test" };

describe("checkContract: evidence is what actually ran", () => {
  it("lets the action stand in for a TESTS_PASS check only when it ran byte-identical bytes", async () => {
    const exec = fakeExec({});
    const [same] = await checkContract(exec, { contract: [npmTest] }, "npm test");
    expect(same?.passed).toBe(true);
    expect(same?.ranAs).toBe(commandBinding("npm test"));
    expect(exec.ran).toEqual([]);
  });

  it("an edited command never inherits the check: the check runs itself", async () => {
    const exec = fakeExec({ 'grep -n "a + b" sum.js && touch checked.txt': result(0) });
    const [edited] = await checkContract(
      exec,
      { contract: [npmTest] },
      'grep -n "a + b" sum.js && touch checked.txt',
    );
    expect(exec.ran).toEqual(["npm test"]);
    expect(edited?.passed).toBe(false);
    expect(edited?.couldNotRun).toBe("`npm` is not installed in this sandbox");
  });

  it("whitespace is not equality: ` npm test` is another command", async () => {
    const exec = fakeExec({ "npm test": result(0) });
    const [spaced] = await checkContract(exec, { contract: [npmTest] }, " npm test");
    expect(spaced?.ranAs).toBeUndefined();
    expect(exec.ran).toEqual(["npm test"]);
    expect(spaced?.passed).toBe(true);
  });

  it("a check the door refused could not run, and is not a pass", async () => {
    const exec: Exec = async () => {
      throw new CheckNotRun("the gate refused the check `rm -rf /`: denied program");
    };
    const [refused] = await checkContract(exec, { contract: [{ kind: "FILE_EXISTS", path: "a" }] }, null);
    expect(refused?.passed).toBe(false);
    expect(refused?.couldNotRun).toContain("gate refused");
  });
});
