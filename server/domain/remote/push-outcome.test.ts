import { describe, expect, it } from "vitest";
import { pushOutcome } from "./push-outcome";

const REF = "refs/heads/arbor/s1";

describe("pushOutcome", () => {
  it("a new branch and an up-to-date one are pushed", () => {
    expect(
      pushOutcome({ stdout: `To x\n*\t${REF}:${REF}\t[new branch]\nDone\n`, stderr: "", exitCode: 0 }, REF),
    ).toEqual({
      pushed: true,
      upToDate: false,
    });
    expect(pushOutcome({ stdout: `=\t${REF}:${REF}\t[up to date]\n`, stderr: "", exitCode: 0 }, REF)).toEqual(
      {
        pushed: true,
        upToDate: true,
      },
    );
  });

  it("a non-fast-forward says so and never suggests forcing", () => {
    const outcome = pushOutcome(
      {
        stdout: `!\t${REF}:${REF}\t[rejected] (non-fast-forward)\nDone\n`,
        stderr: "error: failed to push some refs",
        exitCode: 1,
      },
      REF,
    );
    expect(outcome).toMatchObject({ pushed: false, nonFastForward: true });
    expect(outcome.pushed ? "" : outcome.reason).toMatch(
      /^The remote's arbor\/s1 has commits .* \(non-fast-forward\)\. Nothing was force-pushed/,
    );
    expect(outcome.pushed ? "" : outcome.reason).not.toMatch(/--force|force-push it/);
  });

  it("a hook's refusal keeps the remote's own lines", () => {
    const outcome = pushOutcome(
      {
        stdout: `!\t${REF}:${REF}\t[remote rejected] (pre-receive hook declined)\n`,
        stderr: "remote: main is protected\nremote: ask an admin\nTo x\n",
        exitCode: 1,
      },
      REF,
    );
    expect(outcome).toEqual({
      pushed: false,
      nonFastForward: false,
      reason: "The remote refused arbor/s1 (pre-receive hook declined): main is protected ask an admin",
    });
  });

  it("a failure before any ref (sign-in) gives git's fatal line", () => {
    const outcome = pushOutcome(
      { stdout: "", stderr: "fatal: Authentication failed for 'https://h/r.git/'\n", exitCode: 128 },
      REF,
    );
    expect(outcome).toMatchObject({
      pushed: false,
      reason: "The push failed: Authentication failed for 'https://h/r.git/'",
    });
  });
});
