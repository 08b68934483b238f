export { classifyModelError } from "./classify";
export { type AttemptReport, sleep, withRetry } from "./with-retry";
