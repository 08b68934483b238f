export * from "@/server/domain/vocabulary/stages";
export {
  type ComposeOptions,
  composeSystemPrompt,
  PROMPT_VARIABLES,
  PromptVariable,
  type PromptVariables,
  REASONING_MARKER,
} from "./compose";
export {
  DELIVERY_SOURCES,
  type DeliveryGate,
  type DeliveryReport,
  DeliverySource,
  foldDeliveryGate,
  INITIAL_DELIVERY_GATE,
  reduceDeliveryGate,
} from "./delivery-gate";
export {
  type AssertOptions,
  assertRequestInvariants,
  findViolations,
  type InvariantBehaviour,
  type InvariantViolation,
  InvariantViolationError,
  invariantBehaviourFor,
  type ModelRequestFacts,
  type RequestLogFields,
  requestLogFields,
} from "./invariants";
export {
  REASONING_MACRO_PROMPT,
  REASONING_MICRO_PROMPT,
  type StagePolicy,
  stagePolicy,
  stagesFor,
} from "./policy";
export { compactReasoning, DELIVERY_STATES, DeliveryState, ReasoningOutcome } from "./reasoning-outcome";
