import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { sandboxOwnerLabel } from "./instance-label";

describe("sandboxOwnerLabel", () => {
  const url = "postgresql://arbor:arbor@127.0.0.1:54329/arbor";

  it("differs between two instances on one PostgreSQL database, so neither sweeps the other's sandboxes", () => {
    const a = sandboxOwnerLabel({ databaseUrl: url, dataDir: "/srv/arbor/a", cluster: true });
    const b = sandboxOwnerLabel({ databaseUrl: url, dataDir: "/srv/arbor/b", cluster: true });
    expect(a).not.toBe(b);
    expect(a).toMatch(/^[0-9a-f]{12}$/);
    // The same instance restarting keeps its label (it adopts its own pool, sweeps its own leftovers).
    expect(sandboxOwnerLabel({ databaseUrl: url, dataDir: "/srv/arbor/a/", cluster: true })).toBe(a);
  });

  it("stays the database's own on SQLite (one server per database, as before)", () => {
    const file = "file:/srv/arbor/arbor.db";
    expect(sandboxOwnerLabel({ databaseUrl: file, dataDir: "/elsewhere", cluster: false })).toBe(
      sandboxOwnerLabel({ databaseUrl: file, dataDir: "/srv/arbor", cluster: false }),
    );
    // Unchanged from before the cluster: an upgraded server still owns its existing containers.
    expect(sandboxOwnerLabel({ databaseUrl: file, dataDir: "/srv/arbor", cluster: false })).toBe(
      createHash("sha256").update(file).digest("hex").slice(0, 12),
    );
  });
});
