import type { IntentionView, SessionView } from "@/server/domain/session/view";
import type { Plan } from "@/server/model/actions";
import type { PlanInput } from "@/server/model/types";
import { FakeSandboxProvider, scriptedModel } from "./fakes";

/** Scripts shared by the engine's tests: a model that splits on "and", a sandbox that fails on "fail…". */

export function splitPlan(input: PlanInput): Plan {
  const parts = input.task.split(/ and then | and /);
  if (parts.length >= 2)
    return {
      kind: "decompose",
      thought: "split",
      children: parts.map((what) => ({ what, acceptance: "exits 0" })),
    };
  return input.mustDecompose
    ? { kind: "atomic", thought: "one step" }
    : { kind: "direct", thought: "one step" };
}
export const backticked = (what: string) => ({
  thought: "run it",
  command: /`([^`]+)`/.exec(what)?.[1] ?? "true",
});
export const splitOnAnd = scriptedModel({ plan: splitPlan, nextAction: (input) => backticked(input.what) });

export const ok = () =>
  new FakeSandboxProvider((command) =>
    command.startsWith("fail") ? { exitCode: 1, stderr: "nope" } : { stdout: `ran ${command}` },
  );

export function intentions(view: SessionView): IntentionView[] {
  return Object.values(view.intentions).sort((a, b) => a.depth - b.depth || a.position - b.position);
}
