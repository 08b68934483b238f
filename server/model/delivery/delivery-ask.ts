import { tool } from "ai";
import { argumentsMismatch } from "@/server/domain/text/zod-problems";
import type { Ask } from "@/server/model/ask";
import { composeSystemPrompt } from "@/server/model/compose-prompt";
import { REASONING_MICRO_PROMPT, stagePolicy } from "@/server/policy/stages/policy";
import { renderPrompt } from "../prompts";
import type { Interpretation, ToolCallLike } from "../tool-inputs";
import {
  type DeliveryAnswer,
  type DeliveryCheckInput,
  SUBMIT_DELIVERY,
  SUBMIT_DELIVERY_DESCRIPTION,
  SubmitDeliveryInput,
} from "./types";

/**
 * The delivery check as the AI SDK model sends it: the stage policy's system prompt for
 * `delivery_check` (base, project, mode, stage — no workspace tools), the request and outcome from
 * `prompts/delivery-check.md`, and one answer tool. The reasoning prompt is left to the model's
 * invariant step, which adds it to every ask when (and only when) the person's switch is on.
 */

const NOTHING = "(none)";

export function deliveryInstructions(input: DeliveryCheckInput, dir?: string): string {
  const policy = stagePolicy(
    "delivery_check",
    input.request?.mode ?? "agent",
    input.request?.reasoning ?? "off",
  );
  const withoutReasoning = {
    ...policy,
    prompts: policy.prompts.filter((name) => name !== REASONING_MICRO_PROMPT),
  };
  return composeSystemPrompt(
    withoutReasoning,
    { project_root: "/workspace", tool_summary: "none (answer with submit_delivery)" },
    dir ? { dir } : {},
  );
}

export function deliveryUserMessage(input: DeliveryCheckInput, dir?: string): string {
  const lines = (items: readonly string[]) =>
    items.length > 0 ? items.map((item) => `- ${item}`).join("\n") : NOTHING;
  return renderPrompt(
    "delivery-check",
    {
      task: input.task,
      instructions: input.instructions?.trim() || NOTHING,
      outcome: lines(input.outcome),
      qa: lines(input.qa),
    },
    { dir },
  );
}

export function interpretDelivery(
  calls: readonly ToolCallLike[],
  text: string,
): Interpretation<DeliveryAnswer> {
  const call = calls.find((candidate) => candidate.toolName === SUBMIT_DELIVERY);
  if (!call) {
    if (calls.length > 0)
      return { ok: false, problem: `you called ${calls[0]?.toolName}, not ${SUBMIT_DELIVERY}` };
    const said = text.trim() === "" ? "" : `: "${text.trim().slice(0, 200)}"`;
    return { ok: false, problem: `you answered with text instead of calling ${SUBMIT_DELIVERY}${said}` };
  }
  const parsed = SubmitDeliveryInput.safeParse(call.input);
  if (parsed.success) return { ok: true, value: parsed.data };
  return { ok: false, problem: argumentsMismatch(SUBMIT_DELIVERY, parsed.error) };
}

export function deliveryAsk(input: DeliveryCheckInput, dir?: string): Ask<DeliveryAnswer> {
  return {
    stage: "delivery_check",
    workspaceTools: [],
    request: input.request,
    instructions: deliveryInstructions(input, dir),
    userMessage: deliveryUserMessage(input, dir),
    tools: {
      [SUBMIT_DELIVERY]: tool({ description: SUBMIT_DELIVERY_DESCRIPTION, inputSchema: SubmitDeliveryInput }),
    },
    interpret: interpretDelivery,
  };
}
