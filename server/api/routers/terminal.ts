import "server-only";
import { tracked } from "@trpc/server";
import { z } from "zod";
import { type Context, createRouter, sessionProcedure } from "@/server/api/trpc";
import { MAX_COLS, MAX_ROWS, MIN_COLS, MIN_ROWS } from "@/server/sandbox/terminal";
import type { TerminalActor } from "@/server/terminal/hub";

/**
 * The session's shared terminal: a person's own shell in the session's sandbox. It does not pass the
 * agent's approval gate, so only the project's team reaches it: members and up open, type, resize and
 * close (`terminal`); viewers may only watch (`output`). Output streams over SSE; input is mutations.
 */
const Size = z.object({
  cols: z.number().int().min(MIN_COLS).max(MAX_COLS),
  rows: z.number().int().min(MIN_ROWS).max(MAX_ROWS),
});

/** A paste larger than this is refused rather than cut, so nothing is typed half. */
const MAX_INPUT_CHARS = 64 * 1024;

function actor(ctx: Pick<Context, "user"> & { user: NonNullable<Context["user"]> }): TerminalActor {
  return { userId: ctx.user.id, name: ctx.user.name };
}

export const terminalRouter = createRouter({
  /** Opens the session's terminal, or joins the one already open. */
  open: sessionProcedure
    .requires("terminal")
    .input(z.object({ size: Size }))
    .mutation(({ ctx, input }) => ctx.app.terminals.open(ctx.session.id, input.size, actor(ctx))),

  write: sessionProcedure
    .requires("terminal")
    .input(
      z.object({
        data: z.string().min(1).max(MAX_INPUT_CHARS, `Paste at most ${MAX_INPUT_CHARS} characters at once.`),
      }),
    )
    .mutation(async ({ ctx, input }) => {
      await ctx.app.terminals.write(ctx.session.id, input.data, actor(ctx));
      return { ok: true };
    }),

  resize: sessionProcedure
    .requires("terminal")
    .input(z.object({ size: Size }))
    .mutation(async ({ ctx, input }) => {
      await ctx.app.terminals.resize(ctx.session.id, input.size);
      return { ok: true };
    }),

  close: sessionProcedure.requires("terminal").mutation(async ({ ctx }) => ({
    closed: await ctx.app.terminals.close(ctx.session.id, actor(ctx)),
  })),

  /**
   * The terminal's output: the retained screen first, then live; after a dropped stream the link sends
   * the last frame id it saw and gets only what it missed.
   */
  output: sessionProcedure
    .input(z.object({ lastEventId: z.string().max(200).nullish() }))
    .subscription(async function* ({ ctx, input, signal }) {
      const abort = signal ?? new AbortController().signal;
      for await (const { id, frame } of ctx.app.terminals.follow(
        ctx.session.id,
        input.lastEventId ?? null,
        abort,
      )) {
        yield tracked(id, frame);
      }
    }),
});
