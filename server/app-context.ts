import "server-only";
import { readFileSync } from "node:fs";
import path from "node:path";
import Docker from "dockerode";
import { projectMemories } from "@/server/capture/memory";
import { projectSessionViews } from "@/server/capture/read";
import { db } from "@/server/db";
import { errorMessage } from "@/server/domain/errors";
import { RivaLimits } from "@/server/domain/session/limits";
import type { UserSettings } from "@/server/domain/settings/user-config";
import { deniedAdvice } from "@/server/domain/vocabulary/egress";
import { readSandboxRuntime } from "@/server/domain/vocabulary/sandbox-runtime";
import { env, isPostgresUrl } from "@/server/env";
import { openedKeys } from "@/server/events/opened-keys";
import { otelExportFromEnv } from "@/server/events/otel/from-env";
import { relayCommandOutput } from "@/server/events/pg-command-output";
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
import { PgTerminalOwners } from "@/server/postgres/terminal-owners";
import { egressKeptBySession, egressRecords, projectEgressOf } from "@/server/runtime/egress-records";
import { startImageUpkeep } from "@/server/runtime/image-upkeep";
import { SandboxHosts, sessionHostPins } from "@/server/runtime/sandbox-hosts";
import {
  getEgressProxy,
  getSandboxProvider,
  onEgressConnection,
  onEgressInterruption,
  setEgressRecords,
} from "@/server/sandbox";
import { MultiHostSandboxProvider } from "@/server/sandbox/hosts/multi-host-provider";
import { ProjectImages } from "@/server/sandbox/project-image/project-images";
import { serverResourcePolicy } from "@/server/sandbox/resource-policy";
import { effectiveResources, limitsOf, readProjectResources } from "@/server/sandbox/resources";
import type { SandboxProvider } from "@/server/sandbox/types";
import type { ModelSettingValues } from "@/server/settings/layers";
import { resolveModelSettings } from "@/server/settings/layers";
import { projectAllowList, projectMcpServers } from "@/server/settings/mcp-servers";
import { projectCheckpoints } from "@/server/settings/repo-config-file";
import {
  repoRunSettings,
  type ServerRunDefaults,
  sessionRunBounds,
} from "@/server/settings/repo-run-settings";
import { environmentLayer } from "@/server/settings/resolve";
import { modelForSession } from "@/server/settings/run-model";
import { createSecretBox } from "@/server/settings/secret-box";
import { tierModelsForSession } from "@/server/settings/tier-models";
import { personSettings } from "@/server/settings/user-layer";
import { sessionEnvironment } from "@/server/setup/environment";
import { ClusterTerminals, type Terminals } from "@/server/terminal/cluster";
import { createTerminalHub } from "@/server/terminal/create";
import type { TerminalHub } from "@/server/terminal/hub";
import { TerminalPeerClient } from "@/server/terminal/peer";
import { McpSessions } from "@/server/tools/mcp/sessions";

/**
 * The session terminals: this process's hub; in a cluster whose instances know their own address
 * (ARBOR_INSTANCE_URL), the hub behind the relay that reaches terminals held by other instances.
 */
function createTerminals(
  instance: string | null,
  sandboxes: SandboxProvider,
  store: EventStore,
): { terminals: Terminals; relayedHub: TerminalHub | null } {
  if (instance === null || env.ARBOR_INSTANCE_URL === undefined)
    return { terminals: createTerminalHub({ sandboxes, store, log: logger }), relayedHub: null };
  const owners = new PgTerminalOwners(
    env.DATABASE_URL,
    { instance, address: env.ARBOR_INSTANCE_URL },
    { ttlMs: env.ARBOR_RUN_LEASE_MS },
  );
  const hub = createTerminalHub({
    sandboxes,
    store,
    log: logger,
    onEnded: (sessionId) =>
      void owners
        .release(sessionId)
        .catch((error: unknown) =>
          logger.warn({ err: errorMessage(error), sessionId }, "could not release a terminal's holder row"),
        ),
  });
  return {
    terminals: new ClusterTerminals(hub, owners, new TerminalPeerClient(env.NEXTAUTH_SECRET), logger),
    relayedHub: hub,
  };
}

/** A session with its project, for the services that read the project's settings. */
const sessionProject = (sessionId: string) =>
  db.session.findUniqueOrThrow({ where: { id: sessionId }, include: { project: true } });

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
  // OpenTelemetry (off unless OTEL_EXPORTER_OTLP_ENDPOINT is set): spans and metrics from each append.
  const telemetry = otelExportFromEnv(env);
  const store = new EventStore(
    db,
    () => [...secrets, ...openedKeys()],
    instance,
    telemetry ? (sessionId, events) => telemetry.observe(sessionId, events) : null,
  );
  if (instance !== null) {
    listenForEvents(env.DATABASE_URL, instance, store, (error) =>
      logger.warn({ err: errorMessage(error) }, "live events from other instances interrupted"),
    );
    // A running command's live lines too, so a browser on any instance sees them (not events: see
    // server/events/command-output.ts).
    relayCommandOutput(env.DATABASE_URL, instance, (error) =>
      logger.warn({ err: errorMessage(error) }, "live command output across instances interrupted"),
    );
  }
  const box = createSecretBox(env.secretKey);
  const environment = environmentLayer(env);
  // The server-wide model (status bar, resumed runs): environment over defaults. Each new run
  // resolves its own from the project's and team's settings (see modelForRun below).
  const model = createAgentModel(resolveModelSettings({ environment }));
  const sandboxes = getSandboxProvider(sessionHostPins(db));
  // Several Docker hosts (ARBOR_DOCKER_HOSTS): snapshots after each verification, lost sandboxes marked.
  const sandboxHosts =
    sandboxes instanceof MultiHostSandboxProvider
      ? new SandboxHosts({ db, store, sandboxes, log: logger })
      : null;
  sandboxHosts?.start();
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
  // Another host's egress proxy stopped or was made again: the session's network status says so.
  onEgressInterruption(({ sessionId, phase, state, host, message }) => {
    void store
      .append(sessionId, [{ type: "egress-interrupted", phase, state, host, message }])
      .catch((error: unknown) =>
        logger.warn({ err: error, sessionId }, "could not record an egress interruption"),
      );
  });
  // Each project's own image (.arbor/Dockerfile on its default branch), built on the server's image.
  const projectImages = new ProjectImages({
    db,
    docker: new Docker(),
    baseImage: env.ARBOR_SANDBOX_IMAGE,
    log: logger,
    // Its build runs under the project's setup-phase network, through the same proxy as sandboxes.
    // (narrowed by the repository's file like a session's; runDefaults is read only when a build runs).
    egressOf: async (projectId) => {
      const project = await db.project.findUniqueOrThrow({ where: { id: projectId } });
      return (await repoRunSettings(db, project, runDefaults)).egress.value;
    },
    egressProxy: getEgressProxy(),
  });
  // Arbor's old images (project images of an old hash, superseded builds and copies), when unused: on
  // each listed Docker host, or on the local engine; never a project's while its image builds.
  const imageUpkeep = startImageUpkeep({
    db,
    sandboxes,
    sandboxImage: env.ARBOR_SANDBOX_IMAGE,
    isBuilding: (projectId) => projectImages.isBuilding(projectId),
    intervalMs: env.ARBOR_DOCKER_HOST_UPKEEP_MS,
    log: logger,
  });
  // Prices, budgets and model tiers come from the optional model config; a bad file stops the server,
  // listing every problem.
  const modelConfig = env.ARBOR_MODEL_CONFIG
    ? loadTierConfig(readFileSync(env.ARBOR_MODEL_CONFIG, "utf8"))
    : null;
  // Several instances on one PostgreSQL database: each run is driven by the instance holding its lease.
  // What the server itself sets for every run and sandbox: the layer under the project and the repository.
  const runDefaults: ServerRunDefaults = {
    limits: RivaLimits.parse({
      maxDepth: env.ARBOR_MAX_DEPTH,
      maxCyclesPerIntention: env.ARBOR_MAX_CYCLES,
      maxIterations: env.ARBOR_MAX_ITERATIONS ?? modelConfig?.budgets.maxIterations ?? 10,
      wallClockMs: env.ARBOR_WALL_CLOCK_SECONDS * 1000,
    }),
    budget: modelConfig
      ? { maxCostUsd: modelConfig.budgets.maxCostUsd, maxTokens: modelConfig.budgets.maxTokens }
      : null,
    resources: serverResourcePolicy(),
  };
  // Running sandboxes get their recorded egress phase back on first use in this process (issue #19).
  setEgressRecords(egressRecords({ db, store, currentEgress: projectEgressOf(db, runDefaults) }));
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
    limits: runDefaults.limits,
    clock: Date.now,
    priceOf: createPricer(modelConfig?.prices ?? {}),
    budget: runDefaults.budget,
    // The repository's .arbor/config.yaml (default branch) may only lower them (repo-run-settings.ts).
    // So may the person's own settings and the run's CLI user file (issue #20), only ever lower.
    runLimitsOf: (sessionId, cliLayer) => sessionRunBounds(db, sessionId, runDefaults, cliLayer),
    cliConfigIgnored: async (sessionId, cliLayer) =>
      (await sessionRunBounds(db, sessionId, runDefaults, cliLayer)).ignored,
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
      const session = await sessionProject(sessionId);
      const intentsFile = await intentsFileFor(db, session.projectId);
      const { project } = session;
      // The project's resources as they are when the sandbox is made (a change affects new sandboxes),
      // within the server's caps and made smaller by the repository's file.
      const resources = (await repoRunSettings(db, project, runDefaults)).resources.value;
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
      const { project } = await sessionProject(sessionId);
      const [environment, settings] = await Promise.all([
        sessionEnvironment(db, box, project),
        repoRunSettings(db, project, runDefaults),
      ]);
      // The network as the repository's file narrows it, the agent phase no wider than the session had.
      return { ...environment, egress: await egressKeptBySession(db, sessionId, settings.egress.value) };
    },
    async checkpointsOf(sessionId, cliLayer) {
      const session = await db.session.findUniqueOrThrow({
        where: { id: sessionId },
        include: { project: true },
      });
      // The run's CLI user file > person (the session's opener) > repository (.arbor/config.yaml on the
      // default branch) > project, each only tighter; an invalid file is skipped.
      const person = await personSettings(db, session.createdById);
      return (await projectCheckpoints(session.project, person, cliLayer)).policy;
    },
    async memoriesOf(sessionId) {
      const session = await db.session.findUniqueOrThrow({
        where: { id: sessionId },
        select: { projectId: true },
      });
      const memories = projectMemories(await projectSessionViews({ db, store }, session.projectId), 10);
      return memories.map((memory) => `${memory.kind}: ${memory.summary} (${memory.detail.split("\n")[0]})`);
    },
    modelForRun: (sessionId, overrides, cliLayer) =>
      modelForSession({ db, box, environment }, sessionId, overrides, cliLayer),
    // Model tiers from the config: each intention starts on tier 0 and escalates (server/riva/decide/tiers.ts).
    ...(modelConfig
      ? {
          tiersForRun: (sessionId: string, overrides: ModelSettingValues, cliLayer?: UserSettings) =>
            tierModelsForSession({ db, box, environment }, sessionId, modelConfig, overrides, cliLayer),
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
  // relayedHub: this process's own terminals, which other instances reach through the relay endpoint.
  const { terminals, relayedHub } = createTerminals(instance, sandboxes, store);
  /** Restarts a lost sandbox on a healthy host from its last snapshot; null with one Docker engine. */
  const restartSandbox = sandboxHosts
    ? async (sessionId: string, by: { name: string }) => {
        const session = await db.session.findUniqueOrThrow({
          where: { id: sessionId },
          include: { project: true },
        });
        const { project } = session;
        const resources = effectiveResources(
          readProjectResources(project.sandboxResources),
          serverResourcePolicy(),
        );
        const image = await projectImages.imageFor(project.id).then(
          (choice) => choice.image,
          () => undefined,
        );
        return sandboxHosts.restartElsewhere(sessionId, by, {
          repoPath: project.repoPath,
          branch: session.branch,
          limits: limitsOf(resources),
          runtime: readSandboxRuntime(project.sandboxRuntime),
          ...(image ? { image } : {}),
        });
      }
    : null;
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
    relayedHub,
    tierModels,
    projectImages,
    imageUpkeep,
    runDefaults,
    telemetry,
    restartSandbox,
    mcp,
  };
}

export type AppContext = ReturnType<typeof create>;

const globalForApp = globalThis as unknown as { arborApp?: AppContext };

export function appContext(): AppContext {
  globalForApp.arborApp ??= create();
  return globalForApp.arborApp;
}
