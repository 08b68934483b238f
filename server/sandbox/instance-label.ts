import "server-only";
import { createHash } from "node:crypto";
import path from "node:path";

/**
 * The owner label on this server's sandbox containers, pool containers and egress proxy (the orphan
 * sweep removes only containers with its own label; the egress proxy's network, bridge and squid
 * state are named after it). With SQLite one server owns a database, so the database names the owner:
 * a restart adopts its predecessor's pool and sweeps its leftovers. With PostgreSQL several instances
 * share the database, so the data directory is part of the name: an instance starting up never sweeps
 * or adopts the containers of another live instance (its pool would otherwise be claimed twice, and its
 * squid replaced). Session containers are still found by name, so the instance that resumes a run of a
 * dead one uses that run's sandbox; a dead instance's leftovers are swept when its data directory
 * serves again.
 */
export function sandboxOwnerLabel(options: {
  databaseUrl: string;
  dataDir: string;
  cluster: boolean;
}): string {
  const key = options.cluster
    ? `${options.databaseUrl}\n${path.resolve(options.dataDir)}`
    : options.databaseUrl;
  return createHash("sha256").update(key).digest("hex").slice(0, 12);
}
