import type { EventInput } from "@/server/domain/events/schema";
import { cycle, decomposedRun, model } from "./events";

/** Logs for the session-capture tests: one finished run and one still waiting for an approval. */

/** A decomposed run whose first child needed a second cycle; everything verified, with a closing message. */
export const verifiedRun: EventInput[] = [
  ...decomposedRun(),
  {
    type: "sandbox-ready",
    runId: "run-1",
    containerName: "arbor-x",
    image: "img",
    reused: false,
    durationMs: 3,
  },
  {
    type: "llm-called",
    runId: "run-1",
    intentionId: "root",
    stage: "decompose",
    modelId: "m",
    offline: true,
    tokensIn: 3,
    tokensOut: 4,
    latencyMs: 1,
    error: null,
  },
  ...cycle("run-1", "c1", "cy1", 1),
  { type: "cycle-reflected", runId: "run-1", intentionId: "c1", cycleId: "cy1", reflection: "try again" },
  ...cycle("run-1", "c1", "cy2", 0).slice(2),
  {
    type: "intention-status-changed",
    runId: "run-1",
    intentionId: "c1",
    status: "VERIFIED",
    reason: "exit 0",
  },
  ...cycle("run-1", "c2", "cy3", 0),
  {
    type: "intention-status-changed",
    runId: "run-1",
    intentionId: "c2",
    status: "VERIFIED",
    reason: "exit 0",
  },
  {
    type: "intention-status-changed",
    runId: "run-1",
    intentionId: "root",
    status: "VERIFIED",
    reason: "all",
  },
  { type: "run-ended", runId: "run-1", status: "VERIFIED", reason: "all children verified" },
  { type: "message-posted", messageId: "m2", runId: "run-1", role: "agent", text: "Verified" },
];

/** A second run, still waiting for its decomposition to be approved when the session was exported. */
export const waitingRun: EventInput[] = [
  { type: "message-posted", messageId: "m3", runId: "run-2", role: "user", text: "run `c` and `d`" },
  { type: "run-started", runId: "run-2", task: "run `c` and `d`", mode: "agent", model },
  {
    type: "intention-created",
    runId: "run-2",
    intentionId: "root-2",
    parentId: null,
    what: "run `c` and `d`",
    acceptance: "done",
    depth: 0,
    position: 0,
  },
  { type: "intention-status-changed", runId: "run-2", intentionId: "root-2", status: "ACTIVE", reason: null },
  {
    type: "approval-requested",
    runId: "run-2",
    approvalId: "ap2",
    intentionId: "root-2",
    kind: "decomposition",
    thought: "two parts",
    children: [
      { what: "run `c`", acceptance: "c exits 0" },
      { what: "run `d`", acceptance: "d exits 0" },
    ],
  },
];
