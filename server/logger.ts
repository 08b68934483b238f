import pino from "pino";

/**
 * Structured logs (pino). Reads its level straight from the environment because the sandbox and
 * model layers use it from scripts and tests that never load the validated env module.
 */
export const logger = pino({
  level: process.env.ARBOR_LOG_LEVEL ?? "info",
  redact: {
    paths: ["*.apiKey", "*.password", "*.passwordHash", "*.authorization", "*.secret"],
    censor: "[redacted]",
  },
});
