import "server-only";
import pino from "pino";
import { env } from "./env";

/**
 * Structured logs (pino), at the validated ARBOR_LOG_LEVEL. `server/env` imports nothing that logs,
 * so scripts and tests that use the logger load the environment through it too (a bad value fails
 * there, with every problem listed, rather than quietly logging at the wrong level).
 */
export const logger = pino({
  level: env.ARBOR_LOG_LEVEL,
  redact: {
    paths: ["*.apiKey", "*.password", "*.passwordHash", "*.authorization", "*.secret"],
    censor: "[redacted]",
  },
});
