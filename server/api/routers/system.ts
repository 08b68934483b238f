import "server-only";
import { createRouter, protectedProcedure } from "@/server/api/trpc";
import { errorMessage } from "@/server/domain/errors";

export const systemRouter = createRouter({
  /** What the UI shows in its status bar: which model answers and whether the Docker engine answers. */
  status: protectedProcedure.meta({ tokenCallers: true }).query(async ({ ctx }) => {
    const { model, sandboxes } = ctx.app;
    let docker: { ok: true } | { ok: false; message: string } = { ok: true };
    try {
      await sandboxes.ping();
    } catch (error) {
      docker = { ok: false, message: errorMessage(error) };
    }
    return { model: { id: model.id, label: model.label, offline: model.offline }, docker };
  }),
});
