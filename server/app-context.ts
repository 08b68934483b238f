import "server-only";
import { readFileSync } from "node:fs";
import path from "node:path";
import Docker from "dockerode";
import { projectMemories } from "@/server/capture/memory";
import { projectSessionViews } from "@/server/capture/read";
import { db } from "@/server/db";
import { errorMessage } from "@/server/domain/errors";
import { RivaLimits } from "@/server/domain/session/limits";
import { deniedAdvice } from "@/server/domain/vocabulary/egress";
import { readSandboxRuntime } from "@/server/domain/vocabulary/sandbox-runtime";
import { env, isPostgresUrl } from "@/server/env";
import { openedKeys } from "@/server/events/opened-keys";
import { listenForEvents } from "@/server/events/pg-notifications";
import { EventStore } from "@/server/events/store";
import { intentsFileFor } from "@/server/intents/store";
import { logger } from "@/server/logger";
import { createAgentModel } from "@/server/model";
import { createPricer } from "@/server/model/pricing";
import { loadTierConfig } from "@/server/model/tiers/load";
import { Orchestrator } from "@/server/orchestrator/orchestrator";
import { OutputSoFarFiles } from "@/server/orchestrator/output-so-far-files";
import { instanceName, PgRunLeases } from "@/server/postgres/run-leases";
import { getEgressProxy, getSandboxProvider, onEgressConnection } from "@/server/sandbox";
import { ProjectImages } from "@/server/sandbox/project-image/project-images";
import { serverResourcePolicy } from "@/server/sandbox/resource-policy";
import { effectiveResources, readProjectResources } from "@/server/sandbox/resources";
import type { ModelSettingValues } from "@/server/settings/layers";
import { resolveModelSettings } from "@/server/settings/layers";
import { projectAllowList, projectMcpServers } from "@/server/settings/mcp-servers";
import { projectCheckpoints } from "@/server/settings/repo-config-file";
import { environmentLayer } from "@/server/settings/resolve";
import { modelForSession } from "@/server/settings/run-model";
import { createSecretBox } from "@/server/settings/secret-box";
import { tierModelsForSession } from "@/server/settings/tier-models";
import { projectEgress, sessionEnvironment } from "@/server/setup/environment";
import { createTerminalHub } from "@/server/terminal/create";
import { McpSessions } from "@/server/tools/mcp/sessions";

/**
 * The long-lived services of one server process. On globalThis because Next.js loads route handlers
 * and instrumentation as separate bundles, and there must be exactly one orchestrator.
 */
function create() {
  const secrets = [env.NEXTAUTH_SECRET, env.ARBOR_MODEL_API_KEY, env.GITHUB_SECRET].filter(
    (value): value is string => typeof value === "string",
  );
  // Keys decrypted from team/project settings are redacted like the environment's.
  // Several instances on one PostgreSQL database: this instance's name on its run leases and on the
  // event notifications that carry live events to browsers connected to the other instances.
  const instance = isPostgresUrl(env.DATABASE_URL) ? instanceName() : null;
  const store = new EventStore(db, () => [...secrets, ...openedKeys()], instance);
  if (instance !== null)
    listenForEvents(env.DATABASE_URL, instance, store, (error) =>
      logger.warn({ err: errorMessage(error) }, "live events from other instances interrupted"),
    );
  const box = createSecretBox(env.secretKey);
  const environment = environmentLayer(env);
  // The server-wide model (status bar, resumed runs): environment over defaults. Each new run
  // resolves its own from the project's and team's settings (see modelForRun below).
  const model = createAgentModel(resolveModelSettings({ environment }));
  const sandboxes = getSandboxProvider();
  // Every connection through the egress proxy is an event of the session whose container made it.
  onEgressConnection((connection) => {
    const { sessionId, at: _at, ...rest } = connection;
    void store
      .append(sessionId, [
        {
          type: "egress-connection",
          ...rest,
          advice: connection.allowed
            ? null
            : deniedAdvice(
                connection.reason ?? "not-listed",
                connection.host,
                connection.port,
                connection.phase,
              ),
        },
      ])
      .catch((error: unknown) =>
        logger.warn({ err: error, sessionId }, "could not record an egress connection"),
      );
  });
  // Each project's own image (.arbor/Dockerfile on its default branch), built on the server's image.
  const projectImages = new ProjectImages({
    db,
    docker: new Docker(),
    baseImage: env.ARBOR_SANDBOX_IMAGE,
    log: logger,
    // Its build runs under the project's setup-phase network, through the same proxy as sandboxes.
    egressOf: (projectId) => projectEgress(db, projectId),
    egressProxy: getEgressProxy(),
  });
  // Prices, budgets and model tiers come from the optional model config; a bad file stops the server,
  // listing every problem.
  const modelConfig = env.ARBOR_MODEL_CONFIG
    ? loadTierConfig(readFileSync(env.ARBOR_MODEL_CONFIG, "utf8"))
    : null;
  // Several instances on one PostgreSQL database: each run is driven by the instance holding its lease.
  const leases =
    instance !== null
      ? new PgRunLeases(env.DATABASE_URL, { ttlMs: env.ARBOR_RUN_LEASE_MS, owner: instance })
      : undefined;
  // Each session's MCP servers (stdio in its sandbox, HTTP on the allow-list), connected on first need.
  const mcp = new McpSessions({
    sandboxes,
    callTimeoutMs: env.ARBOR_COMMAND_TIMEOUT_MS,
    async settingsOf(sessionId) {
      const { projectId } = await db.session.findUniqueOrThrow({
        where: { id: sessionId },
        select: { projectId: true },
      });
      const servers = await projectMcpServers(db, projectId);
      return {
        projectId,
        servers,
        allowList: servers.length > 0 ? await projectAllowList(db, projectId) : [],
      };
    },
  });
  const orchestrator = new Orchestrator({
    mcpToolsOf: (sessionId) => mcp.forSession(sessionId),
    ...(leases ? { leases } : {}),
    log: store,
    model,
    sandboxes,
    limits: RivaLimits.parse({
      maxDepth: env.ARBOR_MAX_DEPTH,
      maxCyclesPerIntention: env.ARBOR_MAX_CYCLES,
      maxIterations: env.ARBOR_MAX_ITERATIONS ?? modelConfig?.budgets.maxIterations ?? 10,
      wallClockMs: env.ARBOR_WALL_CLOCK_SECONDS * 1000,
    }),
    clock: Date.now,
    priceOf: createPricer(modelConfig?.prices ?? {}),
    budget: modelConfig
      ? { maxCostUsd: modelConfig.budgets.maxCostUsd, maxTokens: modelConfig.budgets.maxTokens }
      : null,
    commandTimeoutMs: env.ARBOR_COMMAND_TIMEOUT_MS,
    twoPhase: {
      full: env.ARBOR_FULL_MODE,
      simpleIterations: env.ARBOR_SIMPLE_ITERATIONS,
      fullIterations: env.ARBOR_FULL_ITERATIONS,
      escalation: env.ARBOR_ESCALATION,
    },
    traceLedger: true,
    repoContext: true,
    workspaceMaxBytes: env.ARBOR_WORKSPACE_MAX_MB * 1024 * 1024,
    sandboxImage: env.ARBOR_SANDBOX_IMAGE,
    logger,
    // A running command's output tail, kept across a crash for the "interrupted" card (issue #15.7).
    outputSoFar: new OutputSoFarFiles(path.join(env.dataDir, "output-so-far"), (err) =>
      logger.warn({ err }, "could not keep a running command's output"),
    ),
    async workspaceOf(sessionId) {
      const session = await db.session.findUniqueOrThrow({
        where: { id: sessionId },
        include: { project: true },
      });
      const intentsFile = await intentsFileFor(db, session.projectId);
      const { project } = session;
      // The project's resources as they are when the sandbox is made (a change affects new sandboxes).
      const resources = effectiveResources(
        readProjectResources(project.sandboxResources),
        serverResourcePolicy(),
      );
      return {
        repoPath: project.repoPath,
        branch: session.branch,
        intentsFile,
        resources,
        sandboxChoice: async () => ({
          // The hardening is applied at run time whatever the image, so a project image that cannot be
          // resolved (a git or engine error) falls back to the server's image rather than failing the session.
          image: await projectImages.imageFor(project.id).then(
            (choice) => choice.image,
            (error: unknown) => {
              logger.error({ err: error, projectId: project.id }, "could not resolve the project's image");
              return undefined;
            },
          ),
          runtime: readSandboxRuntime(project.sandboxRuntime),
        }),
      };
    },
    async environmentOf(sessionId) {
      const session = await db.session.findUniqueOrThrow({
        where: { id: sessionId },
        include: { project: true },
      });
      return sessionEnvironment(db, box, session.project);
    },
    async checkpointsOf(sessionId) {
      const session = await db.session.findUniqueOrThrow({
        where: { id: sessionId },
        include: { project: true },
      });
      // Repository (.arbor/config.yaml on the default branch) > project; an invalid file is skipped.
      return (await projectCheckpoints(session.project)).policy;
    },
    async memoriesOf(sessionId) {
      const session = await db.session.findUniqueOrThrow({
        where: { id: sessionId },
        select: { projectId: true },
      });
      const memories = projectMemories(await projectSessionViews({ db, store }, session.projectId), 10);
      return memories.map((memory) => `${memory.kind}: ${memory.summary} (${memory.detail.split("\n")[0]})`);
    },
    modelForRun: (sessionId, overrides) => modelForSession({ db, box, environment }, sessionId, overrides),
    // Model tiers from the config: each intention starts on tier 0 and escalates (server/riva/decide/tiers.ts).
    ...(modelConfig
      ? {
          tiersForRun: (sessionId: string, overrides: ModelSettingValues) =>
            tierModelsForSession({ db, box, environment }, sessionId, modelConfig, overrides),
        }
      : {}),
    async runningRuns() {
      const runs = await db.run.findMany({
        where: { status: "RUNNING" },
        select: { id: true, sessionId: true },
      });
      return runs.map((run) => ({ runId: run.id, sessionId: run.sessionId }));
    },
  });
  const terminals = createTerminalHub({ sandboxes, store, log: logger });
  // The tiers' models, by provider and name only: the chat box's model picker lists them.
  const tierModels = (modelConfig?.tiers ?? []).map((tier) => ({
    name: tier.name,
    provider: tier.provider,
    model: tier.model,
  }));
  return {
    store,
    model,
    sandboxes,
    orchestrator,
    box,
    environment,
    terminals,
    tierModels,
    projectImages,
    mcp,
  };
}

export type AppContext = ReturnType<typeof create>;

const globalForApp = globalThis as unknown as { arborApp?: AppContext };

export function appContext(): AppContext {
  globalForApp.arborApp ??= create();
  return globalForApp.arborApp;
}
