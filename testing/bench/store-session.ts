import { createDb } from "@/server/db";
import { EventStore } from "@/server/events/store";
import { bigSession } from "./big-session";

/**
 * Stores a long session (`count` events of `bigSession`) in the user's team, through the same store
 * the server uses, straight into the server's SQLite file; returns its replay URL (`base` + path; "" for a relative one).
 */
export async function storeSession(
  dbFile: string,
  email: string,
  count: number,
  base: string,
): Promise<string> {
  const db = createDb(`file:${dbFile}`);
  try {
    const user = await db.user.findUniqueOrThrow({ where: { email }, include: { memberships: true } });
    const teamId = user.memberships[0]?.teamId;
    if (!teamId) throw new Error(`${email} has no team`);
    const project = await db.project.create({
      data: { name: `long session ${count}`, teamId, repoPath: "/nonexistent.git", createdById: user.id },
    });
    const session = await db.session.create({
      data: { projectId: project.id, createdById: user.id, title: `${count} events`, branch: "arbor/long" },
    });
    // Ids must be unique across sessions: the projections key intentions and cycles by them.
    const suffix = session.id;
    const bodies = JSON.parse(JSON.stringify(bigSession(count).map((e) => e.body)), (key, value) =>
      ["runId", "intentionId", "parentId", "cycleId"].includes(key) && typeof value === "string"
        ? `${value}-${suffix}`
        : value,
    );
    const store = new EventStore(db);
    for (let i = 0; i < bodies.length; i += 1_000) await store.append(session.id, bodies.slice(i, i + 1_000));
    return `${base}/projects/${project.id}/sessions/${session.id}/replay`;
  } finally {
    await db.$disconnect();
  }
}
