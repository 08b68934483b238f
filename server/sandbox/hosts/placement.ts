import "server-only";

/** What placement knows of one Docker host at the moment a session is placed. */
export interface HostLoad {
  id: string;
  healthy: boolean;
  /** Arbor session containers running there now. */
  runningSessions: number;
  maxSessions: number;
  /** The engine's memory minus the limits of the sandboxes running there (bytes; may be negative). */
  freeMemoryBytes: number;
  /** The operator's ranking (ARBOR_DOCKER_HOSTS' `priority=N`); absent means 0. */
  priority?: number;
}

/**
 * The host a new session goes to: a healthy one with room for one more session and for its memory,
 * of the highest priority among those, then the one with the most free memory; equal memory goes to
 * fewer running sessions, then to the first in the configuration. Null when no host can take it (all
 * down or all full). Pure, so it is unit-tested.
 */
export function chooseHost(hosts: readonly HostLoad[], memoryBytes: number): HostLoad | null {
  const order = new Map(hosts.map((host, index) => [host.id, index]));
  const fits = hosts.filter(
    (host) => host.healthy && host.runningSessions < host.maxSessions && host.freeMemoryBytes >= memoryBytes,
  );
  fits.sort(
    (a, b) =>
      (b.priority ?? 0) - (a.priority ?? 0) ||
      b.freeMemoryBytes - a.freeMemoryBytes ||
      a.runningSessions - b.runningSessions ||
      (order.get(a.id) ?? 0) - (order.get(b.id) ?? 0),
  );
  return fits[0] ?? null;
}

/** Why no host was chosen, for the session's error (never an address with credentials: ids only). */
export function noHostReason(hosts: readonly HostLoad[]): string {
  const healthy = hosts.filter((host) => host.healthy);
  if (healthy.length === 0)
    return `No Docker host answers (${hosts.map((host) => host.id).join(", ")}): start one, or check ARBOR_DOCKER_HOSTS.`;
  return `Every healthy Docker host is full (${healthy
    .map((host) => `${host.id}: ${host.runningSessions}/${host.maxSessions} sessions`)
    .join(", ")}): finish or discard sessions, or add a host.`;
}
