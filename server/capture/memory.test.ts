import { describe, expect, it } from "vitest";
import type { EventInput } from "@/server/domain/events/schema";
import { foldEvents } from "@/server/domain/session/fold";
import { cycle, decomposedRun, sequence } from "@/testing/events/events";
import { isTestCommand, projectMemories } from "./memory";

/** A decomposed run whose two children ran `first` and `second`, ending with `status`. */
function session(
  runId: string,
  commands: [string, string],
  status: "VERIFIED" | "FAILED",
  day: number,
): EventInput[] {
  const withCommand = (body: EventInput, command: string): EventInput =>
    body.type === "cycle-started" ? { ...body, action: { ...body.action, content: command } } : body;
  const ids = (body: EventInput): EventInput => {
    // Each session gets its own intention ids, as real ones do.
    const text = JSON.stringify(body)
      .replaceAll('"root"', `"${runId}-root"`)
      .replaceAll('"c1"', `"${runId}-c1"`)
      .replaceAll('"c2"', `"${runId}-c2"`)
      .replaceAll('"ap1"', `"${runId}-ap1"`);
    return JSON.parse(text) as EventInput;
  };
  const bodies: EventInput[] = [
    ...decomposedRun(runId),
    ...cycle(runId, "c1", `${runId}-cy1`, 0).map((body) => withCommand(body, commands[0])),
    { type: "intention-status-changed", runId, intentionId: "c1", status: "VERIFIED", reason: "exit 0" },
    ...cycle(runId, "c2", `${runId}-cy2`, status === "VERIFIED" ? 0 : 1).map((body) =>
      withCommand(body, commands[1]),
    ),
    {
      type: "intention-status-changed",
      runId,
      intentionId: "c2",
      status: status === "VERIFIED" ? "VERIFIED" : "FAILED",
      reason: null,
    },
    { type: "run-ended", runId, status, reason: `day ${day}` },
  ];
  return bodies.map(ids);
}

/** Folds with the run ending on the given day, so "newest first" has something to order by. */
function view(bodies: EventInput[], day: number) {
  return foldEvents(
    sequence(bodies).map((event) => ({ ...event, at: new Date(Date.UTC(2026, 0, day)).toISOString() })),
  );
}

describe("projectMemories", () => {
  it("remembers the commands, the test command and the approved decomposition of a verified run", () => {
    const memories = projectMemories([view(session("r1", ["npm ci", "npm test"], "VERIFIED", 1), 1)]);
    expect(memories.map((memory) => [memory.kind, memory.summary, memory.detail])).toEqual([
      ["command", "npm ci", "run `a`"],
      ["test-command", "npm test", "run `b`"],
      ["decision", "run `a` and run `b`", "run `a`\nrun `b`"],
    ]);
    expect(memories.every((memory) => memory.runId === "r1")).toBe(true);
  });

  it("learns nothing from a run that failed", () => {
    expect(projectMemories([view(session("r1", ["npm ci", "npm test"], "FAILED", 1), 1)])).toEqual([]);
  });

  it("orders newest first and keeps only the newest copy of a repeated memory", () => {
    const older = view(session("old", ["npm ci", "pytest -q"], "VERIFIED", 1), 1);
    const newer = view(session("new", ["npm ci", "go test ./..."], "VERIFIED", 5), 5);
    const memories = projectMemories([older, newer]);
    expect(memories.map((memory) => [memory.runId, memory.summary])).toEqual([
      ["new", "npm ci"],
      ["new", "go test ./..."],
      ["new", "run `a` and run `b`"],
      ["old", "pytest -q"],
    ]);
  });

  it("is capped", () => {
    const views = [1, 2, 3].map((day) =>
      view(session(`r${day}`, [`echo ${day}`, `make test-${day}`], "VERIFIED", day), day),
    );
    expect(projectMemories(views, 4)).toHaveLength(4);
    expect(projectMemories(views)).toHaveLength(7);
  });

  it("does not learn a command whose own checks failed or could not run, even in a verified run", () => {
    const checked = (passed: boolean, couldNotRun?: string): EventInput => ({
      type: "criteria-checked",
      runId: "r1",
      intentionId: "r1-c2",
      cycleId: "r1-cy2",
      results: [
        {
          criterion: { kind: "TESTS_PASS", command: "npm test" },
          passed,
          evidence: couldNotRun ?? "ran",
          ...(couldNotRun ? { couldNotRun } : {}),
        },
      ],
    });
    const withCheck = (check: EventInput) => {
      const bodies = session("r1", ["npm ci", 'grep -n "a + b" sum.js'], "VERIFIED", 1);
      const judged = bodies.findIndex((body) => body.type === "cycle-judged" && body.cycleId === "r1-cy2");
      return view([...bodies.slice(0, judged), check, ...bodies.slice(judged)], 1);
    };
    const learned = (check: EventInput) =>
      projectMemories([withCheck(check)]).map((memory) => memory.summary);
    expect(learned(checked(false, "`npm` is not installed in this sandbox"))).not.toContain(
      'grep -n "a + b" sum.js',
    );
    expect(learned(checked(false))).not.toContain('grep -n "a + b" sum.js');
    expect(learned(checked(true))).toContain('grep -n "a + b" sum.js');
  });

  it("is empty for no sessions", () => {
    expect(projectMemories([])).toEqual([]);
  });
});

describe("isTestCommand", () => {
  it.each([
    "npm test",
    "npm run test",
    "pnpm test -- --run",
    "yarn test",
    "npx vitest run",
    "pytest -q tests/",
    "python -m pytest",
    "go test ./...",
    "cargo test --all",
    "make test",
    "make check",
    "cd app && npm test",
    "CI=1 npm test",
    "mvn -q test",
    "./gradlew test",
    "dotnet test",
    "bundle exec rspec",
    "vendor/bin/phpunit",
  ])("recognises %s", (command) => expect(isTestCommand(command)).toBe(true));

  it.each(["echo npm test", "npm install", "ls tests", "git log --oneline", "make", "cat pytest.ini"])(
    "does not take %s for a test run",
    (command) => expect(isTestCommand(command)).toBe(false),
  );
});
