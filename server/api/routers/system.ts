import "server-only";
import { createRouter, protectedProcedure } from "@/server/api/trpc";
import { errorMessage } from "@/server/domain/errors";
import { TOOL_NAMES, TOOL_SPECS } from "@/server/domain/tools/catalogue";
import { MultiHostSandboxProvider } from "@/server/sandbox/hosts/multi-host-provider";

export const systemRouter = createRouter({
  /**
   * What the UI shows in its status bar: which model answers, whether the Docker engine answers and,
   * with several Docker hosts, each host's sandbox image ID and whether it is the current build (and
   * what each host's image upkeep removed); with the local engine alone, what its image upkeep removed.
   */
  status: protectedProcedure.meta({ tokenCallers: true }).query(async ({ ctx }) => {
    const { model, sandboxes, imageUpkeep } = ctx.app;
    let docker: { ok: true } | { ok: false; message: string } = { ok: true };
    try {
      await sandboxes.ping();
    } catch (error) {
      docker = { ok: false, message: errorMessage(error) };
    }
    const hosts =
      sandboxes instanceof MultiHostSandboxProvider ? await sandboxes.imageStatus().catch(() => null) : null;
    return {
      model: { id: model.id, label: model.label, offline: model.offline },
      docker,
      hosts,
      imageUpkeep: imageUpkeep.localStatus(),
    };
  }),

  /** The agent's tools, their risk and category (what `--approve` names): `arbor tools list`. */
  tools: protectedProcedure.meta({ tokenCallers: true }).query(() =>
    TOOL_NAMES.map((name) => {
      const spec = TOOL_SPECS[name];
      return {
        name,
        risk: spec.risk,
        category: spec.category,
        readOnly: spec.readOnly,
        description: spec.description,
      };
    }),
  ),
});
