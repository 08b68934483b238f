import "server-only";
import { accountRouter } from "./routers/account";
import { apiTokenRouter } from "./routers/api-token";
import { authRouter } from "./routers/auth";
import { captureRouter } from "./routers/capture";
import { contextRouter } from "./routers/context";
import { dashboardRouter } from "./routers/dashboard";
import { environmentRouter } from "./routers/environment";
import { inboxRouter } from "./routers/inbox";
import { intentRouter } from "./routers/intent";
import { mcpRouter } from "./routers/mcp";
import { projectRouter } from "./routers/project";
import { projectSandboxRouter } from "./routers/project-sandbox";
import { remoteRouter } from "./routers/remote";
import { approvalRouter, runRouter } from "./routers/run";
import { sessionRouter } from "./routers/session";
import { settingsRouter } from "./routers/settings";
import { systemRouter } from "./routers/system";
import { teamRouter } from "./routers/team";
import { terminalRouter } from "./routers/terminal";
import { traceRouter } from "./routers/trace";
import { workRouter } from "./routers/work";
import { workspaceRouter } from "./routers/workspace";
import { createRouter } from "./trpc";

export const appRouter = createRouter({
  auth: authRouter,
  account: accountRouter,
  apiToken: apiTokenRouter,
  project: projectRouter,
  projectSandbox: projectSandboxRouter,
  intent: intentRouter,
  session: sessionRouter,
  run: runRouter,
  approval: approvalRouter,
  context: contextRouter,
  system: systemRouter,
  work: workRouter,
  remote: remoteRouter,
  capture: captureRouter,
  trace: traceRouter,
  dashboard: dashboardRouter,
  inbox: inboxRouter,
  team: teamRouter,
  settings: settingsRouter,
  terminal: terminalRouter,
  workspace: workspaceRouter,
  environment: environmentRouter,
  mcp: mcpRouter,
});

export type AppRouter = typeof appRouter;
