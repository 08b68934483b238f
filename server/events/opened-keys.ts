/**
 * API keys this process has decrypted from settings. The event store redacts every one of them (as
 * it does the keys from the environment), so a model echoing a key or a command printing it cannot
 * put it in the log. Only grows; a process holds a handful of keys at most.
 */
const opened = new Set<string>();

export function rememberOpenedKey(key: string): void {
  if (key.length >= 8) opened.add(key);
}

export function openedKeys(): string[] {
  return [...opened];
}
