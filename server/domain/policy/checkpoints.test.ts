import { describe, expect, it } from "vitest";
import { readCheckpointPolicy } from "./checkpoints";

describe("readCheckpointPolicy: the judgment questions", () => {
  it("a policy stored before the questions existed still parses, with every question auto", () => {
    const stored = JSON.stringify({ decompositions: "auto", commands: "never-ask" });
    expect(readCheckpointPolicy(stored)).toMatchObject({
      decompositions: "auto",
      commands: "never-ask",
      judgeAction: "auto",
      verifyIntegration: "auto",
      reviewReflection: "auto",
    });
  });

  it("keeps a question set to ask, and asks every question when the policy cannot be read", () => {
    expect(readCheckpointPolicy('{"judgeAction":"ask"}').judgeAction).toBe("ask");
    for (const unreadable of ['{"judgeAction":"sometimes"}', "{broken"]) {
      expect(readCheckpointPolicy(unreadable)).toMatchObject({
        judgeAction: "ask",
        verifyIntegration: "ask",
        reviewReflection: "ask",
        decompositions: "ask",
      });
    }
  });
});

describe("readCheckpointPolicy: batch pre-approval per category", () => {
  it("pre-approves nothing by default, nor when the policy cannot be read", () => {
    expect(readCheckpointPolicy(null).preApproved).toEqual([]);
    expect(readCheckpointPolicy("{broken").preApproved).toEqual([]);
  });

  it("keeps the chosen categories and refuses one that cannot be pre-approved (then nothing is)", () => {
    expect(readCheckpointPolicy('{"preApproved":["write","git-write"]}').preApproved).toEqual([
      "write",
      "git-write",
    ]);
    // "shell" is the commands setting's business; an unknown category makes the policy unreadable.
    expect(readCheckpointPolicy('{"preApproved":["shell"]}')).toMatchObject({
      preApproved: [],
      commands: "ask-always",
    });
  });
});
