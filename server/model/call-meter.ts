import { estimateTokens } from "@/server/domain/text/tokens";
import type { ModelCallRecord } from "./call-record";
import type { CorrectionNote } from "./corrections";

/** What a request's answer reports about itself: its text, its tool calls, its usage when the server gave it. */
interface Answered {
  text: string;
  calls: unknown;
  tokensIn?: number | undefined;
  tokensOut?: number | undefined;
}

/**
 * What one model call cost, over all of its requests (a corrective re-ask, the reads of a turn): the
 * tokens the server reported, else estimated from the text sent and received, and the time since the
 * meter was made. `record()` is the call's "LLM call made" fact.
 */
export class CallMeter {
  private readonly startedAt = performance.now();
  private tokensIn = 0;
  private tokensOut = 0;

  constructor(
    private readonly modelId: string,
    private readonly stage: ModelCallRecord["stage"],
    /** The workspace tools the call offered (absent: the record names none). */
    private readonly tools?: string[],
  ) {}

  /** Adds one request: `instructions` and `messages` are what was sent, `answer` what came back. */
  count(instructions: string, messages: unknown, answer: Answered): void {
    this.tokensIn += answer.tokensIn ?? estimateTokens(instructions + JSON.stringify(messages));
    this.tokensOut += answer.tokensOut ?? estimateTokens(answer.text + JSON.stringify(answer.calls));
  }

  record(corrections: readonly CorrectionNote[] = []): ModelCallRecord {
    return {
      stage: this.stage,
      modelId: this.modelId,
      offline: false,
      tokensIn: this.tokensIn,
      tokensOut: this.tokensOut,
      latencyMs: performance.now() - this.startedAt,
      ...(this.tools ? { tools: this.tools } : {}),
      ...(corrections.length > 0 ? { corrections: [...corrections] } : {}),
    };
  }
}
