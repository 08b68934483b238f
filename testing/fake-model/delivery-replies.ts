import { type ChatRequest, type FakeReply, intentionText } from "./request";

/**
 * The fake model's delivery check (server/model/delivery/): DONE when the work tree's first line (the
 * request itself) says VERIFIED, else NEEDS_WORK — and NEEDS_WORK with a missing item whenever the
 * request carries the mark below, so tests can see a model disagree with a verified run.
 */

export const SUBMIT_DELIVERY = "submit_delivery";
export const DELIVERY_NEEDS_WORK_MARK = "(delivery-needs-work)";
export const DELIVERY_MISSING_ITEM = "a CHANGELOG entry for the change";

export function deliveryReply(request: ChatRequest): FakeReply {
  const text = intentionText(request);
  const rootLine = /## How the work ended[\s\S]*?\n- (\S+):/.exec(text)?.[1] ?? "";
  const args = text.includes(DELIVERY_NEEDS_WORK_MARK)
    ? {
        state: "NEEDS_WORK",
        reason: "The fake delivery check wants more than was asked of the tree.",
        missing: [DELIVERY_MISSING_ITEM],
      }
    : rootLine === "VERIFIED"
      ? { state: "DONE", reason: "The request verified; nothing is missing.", missing: [] }
      : {
          state: "NEEDS_WORK",
          reason: `The request ended ${rootLine || "unverified"}.`,
          missing: ["a verified result"],
        };
  return { type: "tool-calls", calls: [{ name: SUBMIT_DELIVERY, arguments: args }] };
}

export function offersDelivery(request: ChatRequest): boolean {
  return request.toolNames.includes(SUBMIT_DELIVERY);
}
