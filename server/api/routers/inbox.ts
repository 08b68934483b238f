import "server-only";
import { z } from "zod";
import { createRouter, protectedProcedure } from "@/server/api/trpc";

/** Roles that may answer an approval; a viewer watches but never sees an inbox of work to do. */
const ANSWERING_ROLES = ["owner", "admin", "member"];
const INBOX_LIMIT = 50;

const ApprovalPayload = z.object({
  thought: z.string().default(""),
  command: z.string().nullable().default(null),
});

export interface InboxItem {
  approvalId: string;
  kind: string;
  createdAt: Date;
  sessionId: string;
  sessionTitle: string;
  projectId: string;
  projectName: string;
  /** What the intention the question is about says. */
  what: string;
  /** kind "command": the command waiting to run. */
  command: string | null;
}

export const inboxRouter = createRouter({
  /**
   * Every question the agent is waiting on, in every running session of the caller's teams, oldest
   * first: the header's badge and the inbox page read this.
   */
  pending: protectedProcedure
    .meta({ tokenCallers: true })
    .query(async ({ ctx }): Promise<{ items: InboxItem[]; total: number }> => {
      // An API token sees its own team (and projects) only, and nothing when its role cannot answer.
      const token = ctx.token;
      if (token && !ANSWERING_ROLES.includes(token.role)) return { items: [], total: 0 };
      const where = {
        status: "PENDING",
        run: {
          status: "RUNNING",
          session: {
            project: {
              ...(token ? { teamId: token.teamId } : {}),
              ...(token && token.projectIds.length > 0 ? { id: { in: token.projectIds } } : {}),
              team: { memberships: { some: { userId: ctx.user.id, role: { in: ANSWERING_ROLES } } } },
            },
          },
        },
      };
      const [rows, total] = await Promise.all([
        ctx.db.approval.findMany({
          where,
          orderBy: { createdAt: "asc" },
          take: INBOX_LIMIT,
          select: {
            id: true,
            kind: true,
            createdAt: true,
            intentionId: true,
            payload: true,
            run: {
              select: {
                session: { select: { id: true, title: true, project: { select: { id: true, name: true } } } },
              },
            },
          },
        }),
        ctx.db.approval.count({ where }),
      ]);
      const intentions = await ctx.db.intention.findMany({
        where: { id: { in: rows.map((row) => row.intentionId) } },
        select: { id: true, what: true },
      });
      const whatOf = new Map(intentions.map((i) => [i.id, i.what]));
      const items = rows.map((row) => {
        const payload = ApprovalPayload.safeParse(safeJson(row.payload));
        return {
          approvalId: row.id,
          kind: row.kind,
          createdAt: row.createdAt,
          sessionId: row.run.session.id,
          sessionTitle: row.run.session.title,
          projectId: row.run.session.project.id,
          projectName: row.run.session.project.name,
          what: whatOf.get(row.intentionId) ?? "",
          command: payload.success ? payload.data.command : null,
        };
      });
      return { items, total };
    }),
});

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}
