import "server-only";
import { TRPCError } from "@trpc/server";
import { z } from "zod";
import { createRouter, projectProcedure, sessionProcedure } from "@/server/api/trpc";
import { exportSession, type Problem, parseSessionExport } from "@/server/capture/export";
import { importSession } from "@/server/capture/import";
import { projectMemories } from "@/server/capture/memory";
import { projectSessionViews, readAllEvents } from "@/server/capture/read";
import { trainingExamples } from "@/server/capture/training";

/** Uploads are sent as one string; 20 MB holds thousands of cycles with capped outputs. */
export const MAX_IMPORT_CHARS = 20_000_000;
const PROBLEMS_SHOWN = 20;

/** A message a person can act on: what is wrong and where, without flooding the page. */
export function describeProblems(problems: readonly Problem[]): string {
  const shown = problems.slice(0, PROBLEMS_SHOWN).map((problem) => `• ${problem.path}: ${problem.message}`);
  const more = problems.length - shown.length;
  return [
    `This file is not a valid Arbor session export (${problems.length} problem${problems.length === 1 ? "" : "s"}):`,
    ...shown,
    ...(more > 0 ? [`…and ${more} more.`] : []),
  ].join("\n");
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new TRPCError({
      code: "BAD_REQUEST",
      message: `This file is not JSON (${error instanceof Error ? error.message : "unreadable"}). Choose a file made by "Export session (JSON)".`,
    });
  }
}

export const captureRouter = createRouter({
  /** The session as one versioned JSON document: its whole log plus the folded tree. */
  exportSession: sessionProcedure.query(async ({ ctx }) =>
    exportSession(
      {
        session: {
          id: ctx.session.id,
          title: ctx.session.title,
          branch: ctx.session.branch,
          projectName: ctx.session.project.name,
        },
        exportedAt: new Date().toISOString(),
      },
      await readAllEvents(ctx.app.store, ctx.session.id),
    ),
  ),

  /** A new session in this project from an exported file; nothing in the file starts running. */
  importSession: projectProcedure
    .requires("run")
    .input(z.object({ file: z.string().max(MAX_IMPORT_CHARS, "The file is larger than 20 MB.") }))
    .mutation(async ({ ctx, input }) => {
      const parsed = parseSessionExport(parseJson(input.file));
      if (!parsed.ok)
        throw new TRPCError({ code: "BAD_REQUEST", message: describeProblems(parsed.problems) });
      return importSession(
        { db: ctx.db, store: ctx.app.store },
        { projectId: ctx.project.id, userId: ctx.user.id },
        parsed.value,
      );
    }),

  /** One JSON line per judged cycle, for fine-tuning and evaluation. */
  trainingData: sessionProcedure.query(async ({ ctx }) =>
    trainingExamples(await readAllEvents(ctx.app.store, ctx.session.id)),
  ),

  /** What VERIFIED runs in this project learned: commands that worked, how it tests, approved plans. */
  projectMemory: projectProcedure.query(async ({ ctx }) =>
    projectMemories(await projectSessionViews({ db: ctx.db, store: ctx.app.store }, ctx.project.id)),
  ),
});
