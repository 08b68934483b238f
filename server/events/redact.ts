/**
 * Replaces every occurrence of a known secret (API keys, auth secret) before anything is written to
 * the log, so a model echoing a key or a command printing an env var cannot leak it to readers.
 */
export function redactSecrets(text: string, secrets: readonly string[]): string {
  let result = text;
  for (const secret of secrets) {
    if (secret.length >= 8 && result.includes(secret)) result = result.split(secret).join("[redacted]");
  }
  return result;
}
