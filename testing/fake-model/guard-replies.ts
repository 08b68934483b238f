import { type ChatRequest, offers, type ScenarioRule, textOf } from "./request";
import { SHELL } from "./work-replies";

/**
 * The regression guard's repair cycle, scripted for its test project (sum.js and its node:test "adds
 * two numbers"): the task's edit breaks that test, and the repair cycle's act request says so under
 * "Why this cycle". One model updates the test to the new behaviour; another only looks at it.
 */

/** The act request of a repair cycle ("Why this cycle") that names the failing test. */
const repairNaming = (testName: string) => (request: ChatRequest) =>
  offers(SHELL)(request) &&
  request.messages.some((message) => {
    const text = textOf(message);
    return text.includes("## Why this cycle") && text.includes(testName);
  });

const FIXED_TEST = `const test = require("node:test");
const assert = require("node:assert");
const { sum } = require("../sum");
test("adds two numbers", () => assert.strictEqual(sum(1, 2), -1));
`;

export const repairFixesSumTest: ScenarioRule = {
  description: "act, a repair cycle naming the failing test `adds two numbers`: update that test",
  match: repairNaming("adds two numbers"),
  reply: () => ({
    type: "tool-calls",
    calls: [
      {
        name: "fs_write",
        arguments: {
          thought: "The task changed sum on purpose; the test must expect the new behaviour.",
          path: "test/sum.test.js",
          content: FIXED_TEST,
        },
      },
    ],
  }),
};

export const repairLooksAtSumTest: ScenarioRule = {
  description: "act, a repair cycle naming the failing test `adds two numbers`: cat the test, change nothing",
  match: repairNaming("adds two numbers"),
  reply: () => ({
    type: "tool-calls",
    calls: [{ name: SHELL, arguments: { thought: "Look at the test.", command: "cat test/sum.test.js" } }],
  }),
};
