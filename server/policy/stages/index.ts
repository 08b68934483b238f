export {
  DELIVERY_SOURCES,
  type DeliveryGate,
  type DeliveryReport,
  DeliverySource,
  foldDeliveryGate,
  INITIAL_DELIVERY_GATE,
  reduceDeliveryGate,
} from "@/server/domain/policy/delivery-gate";
export {
  compactReasoning,
  DELIVERY_STATES,
  DeliveryState,
  ReasoningOutcome,
} from "@/server/domain/policy/reasoning-outcome";
export * from "@/server/domain/vocabulary/stages";
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
export {
  PROMPT_VARIABLES,
  PromptVariable,
  type PromptVariables,
  REASONING_MARKER,
} from "./prompt-variables";
