import type { ReasoningSwitch, UserMode } from "@/server/domain/vocabulary/stages";
import { env } from "@/server/env";
import { logger as defaultLogger } from "@/server/logger";
import {
  assertRequestInvariants,
  type InvariantBehaviour,
  invariantBehaviourFor,
  type ModelRequestFacts,
  requestLogFields,
  stagePolicy,
} from "@/server/policy/stages";

/**
 * The user's choices a model request is built for (seed 001 §9.1). Carried from the run (its
 * `run-started` event) to every request the run makes; nothing on the way may change them.
 */
export interface RequestContext {
  runId: string;
  mode: UserMode;
  reasoning: ReasoningSwitch;
}

export interface RequestCheckOptions {
  /** Default: throw in development and test, log in production. */
  behaviour?: InvariantBehaviour;
  logger?: Pick<typeof defaultLogger, "error" | "debug">;
}

/**
 * Checks one model request against the stage policy just before it is sent, and logs its fields
 * (runId, stage, mode, reasoning, tools — never the prompt or a key). NODE_ENV comes from
 * `server/env` like every setting (vitest sets it to "test", so tests throw as development does).
 */
export function checkModelRequest(facts: ModelRequestFacts, options: RequestCheckOptions = {}): void {
  const log = options.logger ?? defaultLogger;
  const behaviour = options.behaviour ?? invariantBehaviourFor(env.NODE_ENV);
  log.debug(requestLogFields(facts), "model request");
  assertRequestInvariants(facts, stagePolicy(facts.stage, facts.mode, facts.reasoning), {
    mode: behaviour,
    log: (violations, fields) =>
      log.error({ ...fields, violations }, "model request breaks the stage policy (seed 001 §9.2)"),
  });
}
