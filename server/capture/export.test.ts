import { describe, expect, it } from "vitest";
import type { EventInput } from "@/server/domain/events/schema";
import { cycle, decomposedRun, sequence } from "@/testing/events/events";
import { exportSession, parseSessionExport, type SessionExport } from "./export";

const meta = {
  session: { id: "s1", title: "run a and b", branch: "arbor/session-s1", projectName: "Demo" },
  exportedAt: "2026-11-22T10:00:00.000Z",
};

const finished: EventInput[] = [
  ...decomposedRun(),
  ...cycle("run-1", "c1", "cy1", 0),
  {
    type: "intention-status-changed",
    runId: "run-1",
    intentionId: "c1",
    status: "VERIFIED",
    reason: "exit 0",
  },
  ...cycle("run-1", "c2", "cy2", 2),
  { type: "cycle-reflected", runId: "run-1", intentionId: "c2", cycleId: "cy2", reflection: "b is missing" },
  { type: "intention-status-changed", runId: "run-1", intentionId: "c2", status: "FAILED", reason: "exit 2" },
  { type: "run-ended", runId: "run-1", status: "FAILED", reason: 'child 2 "run `b`" failed' },
];

/** What a browser download and a later upload do to the document. */
const throughFile = (doc: SessionExport): unknown => JSON.parse(JSON.stringify(doc));

describe("exportSession", () => {
  it("writes a versioned document with the whole log and the folded tree", () => {
    const events = sequence(finished);
    const doc = exportSession(meta, events);
    expect(doc).toMatchObject({ format: "arbor-session", version: 1, exportedAt: meta.exportedAt });
    expect(doc.session).toEqual(meta.session);
    expect(doc.events).toEqual(events);
    expect(doc.tree.runs).toHaveLength(1);
    const run = doc.tree.runs[0];
    expect(run).toMatchObject({ id: "run-1", status: "FAILED", reason: 'child 2 "run `b`" failed' });
    expect(run?.root?.children.map((child) => [child.what, child.status])).toEqual([
      ["run `a`", "VERIFIED"],
      ["run `b`", "FAILED"],
    ]);
    expect(run?.root?.children[1]?.cycles).toEqual([
      {
        index: 0,
        thought: "do it",
        action: { type: "COMMAND", content: "true", target: null, tool: null, input: null },
        exitCode: 2,
        output: "out",
        error: null,
        judgment: "FAILURE",
        reflection: "b is missing",
      },
    ]);
  });

  it("summarises a session with no runs as an empty tree", () => {
    expect(exportSession(meta, []).tree).toEqual({ runs: [] });
  });
});

describe("parseSessionExport", () => {
  it("reads back exactly what was exported", () => {
    const doc = exportSession(meta, sequence(finished));
    const parsed = parseSessionExport(throughFile(doc));
    expect(parsed).toEqual({ ok: true, value: doc });
  });

  it("lists every problem at once, each with its path", () => {
    const doc = throughFile(exportSession(meta, sequence(finished))) as Record<string, unknown>;
    const events = doc.events as Record<string, unknown>[];
    const broken = {
      ...doc,
      format: "something-else",
      version: 2,
      session: { id: "s1", branch: "b", projectName: "p" },
      events: events.map((event, index) =>
        index === 3
          ? { ...event, body: { type: "no-such-event" } }
          : index === 5
            ? { ...event, seq: -1 }
            : event,
      ),
    };
    const parsed = parseSessionExport(broken);
    expect(parsed.ok).toBe(false);
    const paths = parsed.ok ? [] : parsed.problems.map((problem) => problem.path);
    expect(paths).toEqual(
      expect.arrayContaining(["format", "version", "session.title", "events[3].body.type", "events[5].seq"]),
    );
    const messages = parsed.ok ? "" : parsed.problems.map((problem) => problem.message).join("\n");
    expect(messages).toContain("not an Arbor session export");
    expect(messages).toContain("unsupported export version");
  });

  it("refuses something that is not a document at all", () => {
    for (const input of [null, "hello", 42, []]) {
      const parsed = parseSessionExport(input);
      expect(parsed.ok).toBe(false);
      if (!parsed.ok) expect(parsed.problems[0]?.path).toBe("(the document)");
    }
  });

  it("refuses a log whose references do not hang together, naming each broken event", () => {
    const events = sequence(finished);
    const tampered = [
      ...events.slice(0, 2),
      // Sequence goes backwards, and the intention it changes was never created.
      {
        seq: 1,
        at: "2026-11-22T00:00:00.000Z",
        body: {
          type: "intention-status-changed",
          runId: "run-1",
          intentionId: "ghost",
          status: "ACTIVE",
          reason: null,
        },
      },
      ...events.slice(2),
      // The cycle exists, but on another intention than this event says.
      {
        seq: 999,
        at: "2026-11-22T00:00:00.000Z",
        body: { type: "cycle-reflected", runId: "run-1", intentionId: "c2", cycleId: "cy1", reflection: "x" },
      },
      {
        seq: 1000,
        at: "2026-11-22T00:00:00.000Z",
        body: { type: "run-ended", runId: "run-9", status: "STOPPED", reason: "x" },
      },
    ];
    const doc = { ...exportSession(meta, sequence(finished)), events: tampered };
    const parsed = parseSessionExport(throughFile(doc as SessionExport));
    expect(parsed.ok).toBe(false);
    const last = tampered.length - 1;
    expect(parsed.ok ? [] : parsed.problems).toEqual([
      { path: "events[2].seq", message: "sequence number 1 does not follow 2" },
      { path: "events[2].body.intentionId", message: 'intention "ghost" is not created before this event' },
      { path: `events[${last - 1}].body.intentionId`, message: 'cycle "cy1" belongs to intention "c1"' },
      { path: `events[${last}].body.runId`, message: 'run "run-9" is not started before this event' },
    ]);
  });

  it("refuses an id introduced twice", () => {
    const events = sequence([...decomposedRun(), ...decomposedRun()]);
    const doc = { ...exportSession(meta, sequence(finished)), events };
    const parsed = parseSessionExport(throughFile(doc));
    const messages = parsed.ok ? [] : parsed.problems.map((problem) => problem.message);
    expect(messages).toEqual(
      expect.arrayContaining([
        'run "run-1" is introduced twice',
        'intention "root" is introduced twice',
        'approval "ap1" is introduced twice',
        'message "m1" is introduced twice',
      ]),
    );
  });
});
