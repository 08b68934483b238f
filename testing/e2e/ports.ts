/**
 * Ports used only by the end-to-end suite, away from the 3000 a developer's own Arbor uses.
 * `ARBOR_E2E_PORT_OFFSET` (a multiple of 10) shifts all three so that two checkouts can run their suites at once.
 */
const offset = Number(process.env.ARBOR_E2E_PORT_OFFSET ?? 0);
export const APP_PORT = 3100 + offset;
export const FAKE_MODEL_PORT = 4010 + offset;
/**
 * Extra servers started by specs that need their own (restart, engine down, model down): one port per
 * Playwright worker (`TEST_PARALLEL_INDEX` is 0 or 1 with two workers), so two such specs can run at once.
 */
export const SPARE_APP_PORT = 3105 + offset + Number(process.env.TEST_PARALLEL_INDEX ?? 0);
/** e2e/git-remote.spec.ts: its git server (nginx, fcgiwrap) and the fake GitHub API the app is pointed at. */
export const GIT_SERVER_PORT = 4017 + offset;
export const GIT_FCGI_PORT = 4018 + offset;
export const FAKE_GITHUB_PORT = 4019 + offset;
/** e2e/team-webhooks.spec.ts's receiver: the one host:port the app's ARBOR_WEBHOOK_ALLOWED_HOSTS lets through. */
export const WEBHOOK_RECEIVER_PORT = 4016 + offset;
/** The cluster spec's balancer (nginx); its app instances listen on the next ports (deploy/cluster.sh). */
export const CLUSTER_PORT = 3200 + offset;
