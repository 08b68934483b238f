import { describe, expect, it } from "vitest";
import { EventStore } from "@/server/events/store";
import { askEveryCommandProject, payloadOf } from "@/testing/harness/ask-every-command-project";

/**
 * Issue #15 item 4 with every real part (SQLite, Docker, the AI SDK over HTTP to the fake model
 * server), under "ask before every command": a pytest project whose `calc.py` subtracts. The model's
 * check is already green before any work (a comment says `a + b`), so the project's detected tests
 * for `calc.py` are added, and Arbor runs them with pytest's JUnit XML on stdout: the command card
 * shows exactly that command, the approval binds it, and the counts and failing test names read from
 * the report are stored in the log, red before the edit and green after it.
 */
const CALC = "# add returns a + b\ndef add(a, b):\n    return a - b\n";
const TEST = `import pytest
from calc import add

def test_add():
    assert add(1, 2) == 3

def test_add_zero():
    assert add(0, 0) == 0

@pytest.mark.skip(reason="later")
def test_later():
    pass
`;

const { world, answerUntilEnded, start } = askEveryCommandProject({
  repoName: "Reports",
  files: { "calc.py": CALC, "test_calc.py": TEST },
  task: "replace `a - b` with `a + b` in `calc.py`",
});

const DETECTED = "python3 -m pytest -q test_calc.py";
const RUNS = `${DETECTED} --junitxml=/dev/stdout`;

describe("a test check's report, stored", () => {
  it("pytest's JUnit counts and failing names, red before and green after, under the exact bound command", async () => {
    const { orch, runId } = await start();
    const seen = await answerUntilEnded(orch, runId, () => true);

    const view = await world.view();
    const root = view.intentions[view.runs[runId]?.rootId ?? ""];
    // The contract names the project's command; the check runs (and the card shows) its reporter form.
    expect(root?.contract).toEqual([
      { kind: "FILE_CONTAINS", path: "calc.py", text: "a + b" },
      { kind: "TESTS_PASS", command: DETECTED },
    ]);
    const baselineCards = seen.filter((card) => payloadOf(card).thought?.startsWith("Check before any work"));
    expect(baselineCards.map((card) => payloadOf(card).command)).toContain(RUNS);

    const events = await new EventStore(world.db).read(world.sessionId);
    const ran = events.flatMap((event) =>
      event.body.type === "check-ran" && event.body.command === RUNS ? [event.body] : [],
    );
    expect(ran.map((check) => [check.phase, check.status])).toEqual([
      ["baseline", "ask"],
      ["baseline", "failed"],
      ["after-action", "ok"],
    ]);
    // Before any work: red, with the failing test's name, read from the JUnit report.
    const baselined = events.flatMap((event) => (event.body.type === "checks-baselined" ? [event.body] : []));
    const before = baselined.flatMap((event) => event.results).find((entry) => entry.index === 1);
    expect(before?.result.tests).toEqual({
      runner: "pytest",
      passed: 1,
      failed: 1,
      skipped: 1,
      total: 3,
      failingTests: [expect.stringContaining("test_add")],
      source: "reporter",
    });
    expect(before?.result.tests?.failingTests[0]).not.toContain("test_add_zero");
    // After the edit: green, every test that ran passed, the skipped one counted apart.
    const checked = events.flatMap((event) => (event.body.type === "criteria-checked" ? [event.body] : []));
    const after = checked.at(-1)?.results[1];
    expect(after?.passed).toBe(true);
    expect(after?.ranCommand).toBe(RUNS);
    expect(after?.tests).toEqual({
      runner: "pytest",
      passed: 2,
      failed: 0,
      skipped: 1,
      total: 3,
      failingTests: [],
      source: "reporter",
    });
    expect(after?.evidence).toContain(`\`${RUNS}\` exited 0: 2 passed, 0 failed, 1 skipped`);
    expect(root?.status).toBe("VERIFIED");
    expect(root?.evidence).toBe("red-to-green");
  }, 180_000);
});
