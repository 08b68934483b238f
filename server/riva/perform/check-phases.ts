import { randomUUID } from "node:crypto";
import { verifyCriterion } from "@/server/contract/verify";
import type { Criterion, CriterionResult } from "@/server/domain/contract/criteria";
import { needsFallbackAfterBaseline } from "@/server/domain/contract/detected-tests";
import { errorMessage } from "@/server/domain/errors";
import type { EventInput } from "@/server/domain/events/schema";
import type { IntentionView } from "@/server/domain/session/view";
import { baselinePlan } from "../decide/evidence";
import { statusChanged } from "../decide/run-events";
import { type CheckRecord, type CheckSite, checkExec } from "./check-exec";
import { checkContract } from "./contract-check";
import { activeIntentOf, type CycleHost } from "./cycle-host";

/**
 * The contract checks outside an action cycle: the baseline before an intention's first action (red
 * before green) and the integration check after its children settled. Like every check they run
 * through the dispatch; a check the policy would ask about becomes a command card.
 */

/** The exec every contract check of this intention runs through: the dispatch, as a call of its own. */
export function checksExec(host: CycleHost, intention: IntentionView, site: CheckSite, record: CheckRecord) {
  return checkExec(
    host.tools,
    {
      activeIntent: activeIntentOf(intention),
      intentionId: intention.id,
      signal: host.workspace.signal(),
    },
    site,
    record,
    (command) => host.checkApproval?.(intention, command) ?? null,
  );
}

/**
 * Red before green: the checks that are safe to run twice run once before the intention's first
 * action (through the dispatch like every check); the rest are recorded as skipped. A check the
 * policy would ask about asks here too, with a command card (once: a card a person answered
 * without approving leaves it "could not run", no baseline). When every check was already green,
 * the project's detected tests are added to the contract as a fallback and baselined with them.
 */
export async function runBaseline(host: CycleHost, intention: IntentionView): Promise<void> {
  const plan = baselinePlan(intention);
  const record: CheckRecord = { events: [], asks: [] };
  const site = {
    runId: host.runId,
    intentionId: intention.id,
    cycleId: null,
    phase: "baseline",
  } as const;
  const exec = checksExec(host, intention, site, record);
  const results: { index: number; result: CriterionResult }[] = [];
  for (const index of plan.run) {
    const criterion = intention.contract[index];
    if (criterion)
      results.push({
        index,
        result: await verifyCriterion(exec, criterion, host.testHints?.(intention)),
      });
  }
  const extended: EventInput[] = [];
  const already = intention.contractBy?.detectedTests ?? [];
  const fallback = needsFallbackAfterBaseline(intention.contract, results, plan.skipped, already)
    ? (host.detectedTests?.(intention) ?? null)
    : null;
  if (fallback && !intention.contract.some((criterion) => sameCheck(criterion, fallback))) {
    const index = intention.contract.length;
    results.push({
      index,
      result: await verifyCriterion(exec, fallback, host.testHints?.(intention)),
    });
    extended.push({
      type: "contract-built",
      runId: host.runId,
      intentionId: intention.id,
      criteria: [...intention.contract, fallback],
      source: intention.contractBy?.source ?? "acceptance",
      dropped: intention.contractBy?.dropped ?? [],
      generatedTest: intention.contractBy?.generatedTest
        ? {
            path: intention.contractBy.generatedTest.path,
            content: intention.contractBy.generatedTest.content,
          }
        : null,
      detectedTests: [index],
    });
  }
  const ask = askFor(host, intention, "baseline", record);
  if (ask) return host.append([...record.events, ask]);
  await host.append([
    ...record.events,
    ...extended,
    {
      type: "checks-baselined",
      runId: host.runId,
      intentionId: intention.id,
      results,
      skipped: plan.skipped,
    },
  ]);
}

/**
 * A check outside any cycle that the policy would not run unasked: a command card for exactly it
 * (approving lets that command run there, bound by its hash), unless a person already answered one.
 * `thought` says what the check is for (a contract check, or the regression guard).
 */
export function askFor(
  host: CycleHost,
  intention: IntentionView,
  phase: "baseline" | "integration" | "guard",
  record: CheckRecord,
  thought: (command: string) => string = contractCheckThought(phase),
): EventInput | null {
  const waiting = record.asks.find(
    (asked) => !(host.checkAnswered?.(intention, phase, asked.command) ?? false),
  );
  if (!waiting || !host.checkAnswered) return null;
  return {
    type: "approval-requested",
    runId: host.runId,
    approvalId: randomUUID(),
    intentionId: intention.id,
    kind: "command",
    thought: thought(waiting.command),
    command: waiting.command,
    binding: waiting.binding,
    reason: waiting.reason,
    checkPhase: phase,
  };
}

function contractCheckThought(phase: "baseline" | "integration" | "guard") {
  const when = phase === "baseline" ? "before any work (the baseline)" : "at integration";
  return (command: string) =>
    `Check ${when}: run \`${command}\` (a check of this intention's contract; it is not an action).`;
}

/** The intention's contract checked after its children settled; the verdict is the transition's. */
export async function runIntegration(host: CycleHost, intention: IntentionView): Promise<void> {
  let results: CriterionResult[];
  const record: CheckRecord = { events: [], asks: [] };
  const site = {
    runId: host.runId,
    intentionId: intention.id,
    cycleId: null,
    phase: "integration",
  } as const;
  try {
    results = await checkContract(
      checksExec(host, intention, site, record),
      intention,
      null,
      host.testHints?.(intention),
    );
    // A check the policy would ask about asks here as well; its answer lets the check run again.
    const ask = askFor(host, intention, "integration", record);
    if (ask) return host.append([...record.events, ask]);
  } catch (error) {
    return host.append([
      statusChanged(
        host.runId,
        intention,
        "FAILED",
        `integration check could not run: ${errorMessage(error)}`,
      ),
    ]);
  }
  const check: EventInput = {
    type: "criteria-checked",
    runId: host.runId,
    intentionId: intention.id,
    cycleId: null,
    results,
  };
  // The verdict (auto, or proposed to a person) is the transition's: see integrationStep.
  return host.append([...record.events, check]);
}

function sameCheck(a: Criterion, b: Criterion): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}
