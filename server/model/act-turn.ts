import { jsonSchema, type ModelMessage, type ToolSet, tool } from "ai";
import type { ToolName } from "@/server/domain/tools/catalogue";
import { isReadOnlyTool } from "@/server/domain/tools/catalogue";
import { functionNameOf } from "@/server/domain/tools/wire-names";
import { stagePolicy } from "@/server/policy/stages/policy";
import { toolManuals } from "@/server/tools/registry";
import type { NextAction } from "./actions";
import type { CorrectionNote, RenderedCorrection } from "./corrections";
import type { ToolCallOutcome } from "./request-tool-call";
import { type Interpretation, interpretAction } from "./tool-inputs";
import type { ExtraToolManual, ReadPort } from "./types";

/**
 * Calls the act turn runs in place, before its action: the reads, and select_active_intent (it only
 * chooses which project intent's owned_scope binds the run's writes; it changes no file).
 */
export function isInTurnCall(tool: string): boolean {
  return isReadOnlyTool(tool) || tool === "select_active_intent";
}

/**
 * The act step as one model turn: the model may read (fs.read, fs.list, fs.search, git.status/diff/log)
 * a few times — each read runs through the engine's read port and its result goes back to the model
 * in the same turn — and then answers with the cycle's action, the first call that is not a read. One
 * corrective re-ask per turn for an answer that does not validate. No growing chat across cycles: the
 * next cycle starts a fresh turn from the store.
 */

/**
 * The tools the act stage offers: the stage policy's, i.e. every tool. select_active_intent runs in
 * the turn like a read: it binds the run's writes to the chosen project intent's owned_scope.
 */
export function actToolNames(): ToolName[] {
  return [...stagePolicy("act", "agent", "off").tools];
}

/**
 * Each offered tool with its operating manual and its JSON Schema plus a `thought` to say why; the
 * project's MCP tools (`extra`) after the catalogue's, under their registry names.
 */
export function actToolSet(
  names: readonly ToolName[] = actToolNames(),
  extra: readonly ExtraToolManual[] = [],
): ToolSet {
  const manuals = new Map(toolManuals().map((manual) => [manual.name, manual]));
  const tools: ToolSet = {};
  const entries = [
    ...names.flatMap((name) => {
      const manual = manuals.get(name);
      return manual ? [{ functionName: functionNameOf(name), manual }] : [];
    }),
    ...extra.map((manual) => ({ functionName: manual.name, manual })),
  ];
  for (const { functionName, manual } of entries) {
    const schema = manual.inputSchema as { properties?: Record<string, unknown>; required?: string[] };
    const withThought = {
      ...schema,
      properties: {
        thought: {
          type: "string",
          description: "What you are about to do and why, in one or two sentences.",
        },
        ...(schema.properties ?? {}),
      },
      required: ["thought", ...(schema.required ?? [])],
    };
    delete (withThought as Record<string, unknown>).$schema;
    tools[functionName] = tool({
      description: manual.description,
      inputSchema: jsonSchema(withThought as Parameters<typeof jsonSchema>[0]),
    });
  }
  return tools;
}

export interface ActTurnDeps {
  offered: readonly ToolName[];
  /** The registry names of the project's MCP tools offered next to them (their own function names). */
  extra?: readonly string[];
  reads: ReadPort | undefined;
  /** One model request over these messages (the caller adds instructions and tools). */
  request(messages: ModelMessage[]): Promise<ToolCallOutcome>;
  /** The corrective message for an unusable answer: its own prompt per kind (corrections.ts). */
  correction(answer: ToolCallOutcome, problem: string): RenderedCorrection;
  /** Sent after the task on the first request: the failed-tool correction of a retry. */
  opening?: RenderedCorrection | null;
  /** Told to the model once its reads are used up. */
  readsExhausted: string;
}

/**
 * `text`: what the model wrote next to its calls during the turn (with reasoning on, its reflection).
 * `corrections`: the correction prompts the turn sent, in order, for the log.
 */
export type ActTurnResult = (
  | { ok: true; action: NextAction; text: string }
  | { ok: false; problem: string }
) & { corrections: CorrectionNote[] };

export async function runActTurn(task: ModelMessage, deps: ActTurnDeps): Promise<ActTurnResult> {
  const messages: ModelMessage[] = [task];
  const corrections: CorrectionNote[] = [];
  const texts: string[] = [];
  if (deps.opening) {
    messages.push({ role: "user", content: deps.opening.message });
    corrections.push(deps.opening.note);
  }
  let reads = 0;
  let reAsked = false;
  const maxReads = deps.reads?.maxReads ?? 0;
  // Each read and the one re-ask cost a request; the bound keeps a confused model from looping.
  for (let request = 0; request < maxReads + 3; request++) {
    const outcome = await deps.request(messages);
    const interpreted: Interpretation<NextAction> = interpretAction(
      outcome.calls,
      outcome.text,
      deps.offered,
      deps.extra ?? [],
    );
    if (outcome.text.trim() !== "") texts.push(outcome.text.trim());
    if (!interpreted.ok) {
      if (reAsked) return { ...interpreted, corrections };
      reAsked = true;
      const correction = deps.correction(outcome, interpreted.problem);
      corrections.push(correction.note);
      messages.push({ role: "user", content: correction.message });
      continue;
    }
    const action = interpreted.value;
    if (!isInTurnCall(action.tool) || !deps.reads || reads >= maxReads)
      return { ok: true, action, text: texts.join("\n\n"), corrections };
    reads += 1;
    const result = await deps.reads.run({ tool: action.tool, input: action.input });
    const call = outcome.calls.find(
      (candidate) => candidate.toolName === functionNameOf(action.tool as ToolName),
    );
    const toolCallId = call?.toolCallId ?? `read-${reads}`;
    const toolName = functionNameOf(action.tool as ToolName);
    messages.push(
      {
        role: "assistant",
        content: [
          { type: "tool-call", toolCallId, toolName, input: { thought: action.thought, ...action.input } },
        ],
      },
      {
        role: "tool",
        content: [{ type: "tool-result", toolCallId, toolName, output: { type: "text", value: result } }],
      },
    );
    if (reads >= maxReads) messages.push({ role: "user", content: deps.readsExhausted });
  }
  return { ok: false, problem: "the model kept reading without choosing an action", corrections };
}
