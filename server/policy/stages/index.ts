export {
  assertRequestInvariants,
  type InvariantBehaviour,
  InvariantViolationError,
  invariantBehaviourFor,
  type ModelRequestFacts,
  requestLogFields,
} from "./invariants";
export { type StagePolicy, stagePolicy } from "./policy";
