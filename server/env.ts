import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { z } from "zod";
// Relative paths only, here and in what these import: prisma.config.ts loads this module in the Prisma
// CLI, which does not resolve the "@/" alias.
import { parseSecretKey } from "./data-dir/secret-key";
import { issuesOf } from "./domain/text/zod-problems";
import { parseDockerHosts } from "./domain/vocabulary/docker-hosts";
import { PROVIDER_IDS } from "./domain/vocabulary/providers";
import { EscalationPolicy, FULL_MODE_CHOICES, TWO_PHASE_DEFAULTS } from "./domain/vocabulary/two-phase";

/**
 * The one place that reads `process.env`. Every other module imports `env` from here, so a bad value
 * fails at build and at startup with every problem listed at once, never at the first request.
 *
 * Importing this module never writes a file: the build (`scripts/check-env.ts`) and `prisma generate`
 * import it with no secrets at hand. The two secrets that may be generated (`NEXTAUTH_SECRET`,
 * `ARBOR_SECRET_KEY`) are read from the data directory when first used; the start command creates
 * those files (`scripts/ensure-secrets.ts`, see `server/data-dir/secret-files.ts`).
 */
const optionalString = z
  .string()
  .optional()
  .transform((value) => (value === undefined || value.trim() === "" ? undefined : value.trim()));

/** `DATABASE_URL` names PostgreSQL (postgres:// or postgresql://); anything else is a SQLite file. */
export function isPostgresUrl(url: string): boolean {
  return /^postgres(ql)?:\/\//i.test(url);
}

/** An OTLP header value, URL-decoded as the OpenTelemetry spec says; null when it is not valid encoding. */
function decodedHeaderValue(value: string): string | null {
  try {
    return decodeURIComponent(value);
  } catch {
    return null;
  }
}

const positiveInt = (fallback: number) => z.coerce.number().int().positive().default(fallback);

const schema = z.object({
  NODE_ENV: z.enum(["development", "test", "production"]).default("development"),
  /** Where Arbor keeps its SQLite file, bare project repositories and generated secrets. */
  ARBOR_DATA_DIR: z.string().default("data"),
  /** Prisma connection string; defaults to `file:<ARBOR_DATA_DIR>/arbor.db`. */
  DATABASE_URL: optionalString,
  /** Secret for next-auth JWTs; when not set, read from `<data dir>/auth-secret` (the start command creates it). */
  NEXTAUTH_SECRET: optionalString,
  NEXTAUTH_URL: z.url().default("http://localhost:3000"),
  GITHUB_ID: optionalString,
  GITHUB_SECRET: optionalString,
  /**
   * Where pull requests of GitHub remotes are opened (issue #21.3): GitHub's REST API, or a GitHub
   * Enterprise server's (`https://host/api/v3`). Server-wide on purpose: a project's token is only
   * ever sent to the address the administrator named.
   */
  ARBOR_GITHUB_API_URL: z.url().default("https://api.github.com"),
  /**
   * Webhook receivers on the administrator's own network (issue #21's SSRF filter refuses loopback,
   * private and link-local addresses otherwise): a comma list of `host` or `host:port`, matched exactly.
   */
  ARBOR_WEBHOOK_ALLOWED_HOSTS: z
    .string()
    .optional()
    .transform((value) =>
      (value ?? "")
        .split(",")
        .map((entry) => entry.trim().toLowerCase())
        .filter((entry) => entry !== ""),
    ),
  /**
   * The model, deployment-wide: this "environment" layer beats project and team settings (see
   * server/settings/layers.ts). Unset values leave the choice to the settings page; with no server at
   * all, the built-in offline model is used. A base URL alone means an OpenAI-compatible provider.
   */
  ARBOR_MODEL_PROVIDER: optionalString.pipe(z.enum(PROVIDER_IDS).optional()),
  ARBOR_MODEL_BASE_URL: optionalString.pipe(z.url().optional()),
  ARBOR_MODEL_API_KEY: optionalString,
  ARBOR_MODEL_NAME: optionalString,
  ARBOR_MODEL_TIMEOUT_MS: z.coerce.number().int().positive().optional(),
  /**
   * 32 bytes (64 hex digits or base64) that encrypt API keys stored in settings (AES-256-GCM); when
   * not set, read from `<data dir>/secret-key` (the start command creates it).
   */
  ARBOR_SECRET_KEY: z
    .string()
    .optional()
    .superRefine((value, context) => {
      if (value === undefined || value.trim() === "") return;
      try {
        parseSecretKey(value);
      } catch (error) {
        context.addIssue({ code: "custom", message: error instanceof Error ? error.message : String(error) });
      }
    })
    .transform((value) => (value === undefined || value.trim() === "" ? undefined : value.trim())),
  /** A YAML file with model prices and run budgets (see server/model/tiers/example.yaml). */
  ARBOR_MODEL_CONFIG: optionalString,
  ARBOR_SANDBOX_IMAGE: z.string().default("arbor-sandbox:latest"),
  /**
   * The Docker engines sandboxes run on (server/domain/vocabulary/docker-hosts.ts): `local`,
   * `unix:///path` or `tcp://host:port?tls=/dir`, comma-separated. Unset: the local engine only.
   */
  ARBOR_DOCKER_HOSTS: optionalString.superRefine((value, context) => {
    try {
      parseDockerHosts(value);
    } catch (error) {
      context.addIssue({ code: "custom", message: error instanceof Error ? error.message : String(error) });
    }
  }),
  /** How often each of those hosts is pinged; a failed ping marks its sessions' sandboxes lost. */
  ARBOR_DOCKER_HOST_CHECK_MS: z.coerce.number().int().min(200).max(600_000).default(5_000),
  /**
   * How often each of those hosts' old images of Arbor's (superseded copies, project images of an old
   * hash) are removed when unused (server/sandbox/hosts/image-upkeep.ts).
   */
  ARBOR_DOCKER_HOST_UPKEEP_MS: z.coerce.number().int().min(1_000).max(86_400_000).default(600_000),
  /** Warm sandbox containers kept ready for new sessions (0: off). */
  ARBOR_SANDBOX_POOL_SIZE: z.coerce.number().int().min(0).max(16).default(0),
  /**
   * On PostgreSQL (several instances on one database): how long a run's lease lasts without its
   * instance renewing it, i.e. how soon another instance resumes the runs of one that died.
   */
  /**
   * In a cluster: this instance's own address as the other instances reach it (http://10.0.0.5:3000),
   * for the session terminal's relay (server/terminal/cluster.ts). Unset: terminals stay in the process
   * a watcher reached, as with one instance.
   */
  ARBOR_INSTANCE_URL: optionalString.pipe(z.url().optional()),
  ARBOR_RUN_LEASE_MS: z.coerce.number().int().min(1_000).max(600_000).default(15_000),
  ARBOR_COMMAND_TIMEOUT_MS: positiveInt(120_000),
  /**
   * The egress proxy (squid) sandboxes reach the network through, on the internal network's gateway
   * (server/sandbox/egress). "off": no proxy; phases other than Open and Off then run Off.
   */
  ARBOR_EGRESS_PROXY: z.enum(["on", "off"]).default("on"),
  ARBOR_EGRESS_PROXY_PORT: z.coerce.number().int().min(1024).max(65535).default(3129),
  /** The image of the egress proxy on Docker hosts other than the local engine (egress-image/build.sh). */
  ARBOR_EGRESS_IMAGE: z.string().default("arbor-egress:latest"),
  /** The host's own proxy, which the egress proxy uses upstream when set (http://host:port). */
  HTTPS_PROXY: optionalString,
  HTTP_PROXY: optionalString,
  https_proxy: optionalString,
  http_proxy: optionalString,
  /**
   * The /workspace size cap, server-wide, and the default of projects that set none: fs.write and
   * fs.edit refuse to grow it beyond this many MB, and a command that leaves it larger fails.
   */
  ARBOR_WORKSPACE_MAX_MB: positiveInt(2_048),
  /** Sandbox resources of a project that sets none (server/sandbox/resources.ts)… */
  ARBOR_SANDBOX_CPUS: z.coerce.number().positive().max(64).default(1),
  ARBOR_SANDBOX_MEMORY_MB: z.coerce.number().int().min(64).default(1_024),
  ARBOR_SANDBOX_PIDS: z.coerce.number().int().min(32).default(256),
  /** …and the caps no project may go over (the project page refuses higher values). */
  ARBOR_SANDBOX_MAX_CPUS: z.coerce.number().positive().max(64).default(2),
  ARBOR_SANDBOX_MAX_MEMORY_MB: z.coerce.number().int().min(64).default(4_096),
  ARBOR_SANDBOX_MAX_PIDS: z.coerce.number().int().min(32).default(1_024),
  /** Seed 000's safety limits (see server/domain/session/limits.ts). */
  ARBOR_MAX_DEPTH: z.coerce.number().int().min(0).max(50).default(10),
  ARBOR_MAX_CYCLES: positiveInt(5),
  /** Action cycles per run; unset: the model config's `budgets.maxIterations`, else 10. */
  ARBOR_MAX_ITERATIONS: z.coerce.number().int().positive().optional(),
  ARBOR_WALL_CLOCK_SECONDS: positiveInt(300),
  /**
   * Seed 002's phases for a run without model tiers (server/model/tiers/two-phase.ts): "escalate"
   * (simple mode, then full mode), "always" (full mode only) or "off" (simple mode only).
   */
  ARBOR_FULL_MODE: z.enum(FULL_MODE_CHOICES).default(TWO_PHASE_DEFAULTS.full),
  ARBOR_SIMPLE_ITERATIONS: positiveInt(TWO_PHASE_DEFAULTS.simpleIterations),
  ARBOR_FULL_ITERATIONS: positiveInt(TWO_PHASE_DEFAULTS.fullIterations),
  /** How those phases combine with decomposition; the README explains the default. */
  ARBOR_ESCALATION: EscalationPolicy.default(TWO_PHASE_DEFAULTS.escalation),
  /**
   * A directory on the server under which projects may be imported from a local path or file:// URL.
   * Unset (the default): local imports are refused, only network git URLs are accepted. It may not be
   * Arbor's data directory or inside it (every team's repositories live there).
   */
  ARBOR_IMPORT_LOCAL_ROOT: optionalString.pipe(
    z
      .string()
      .refine((value) => path.isAbsolute(value), "must be an absolute path")
      .optional(),
  ),
  /**
   * Sign-in limits (server/auth/sign-in-guard.ts): failed password attempts per account and per client
   * address within a window; the next attempt is refused with "try again in N s" before bcrypt runs.
   */
  ARBOR_SIGN_IN_ACCOUNT_LIMIT: positiveInt(10),
  ARBOR_SIGN_IN_ADDRESS_LIMIT: positiveInt(50),
  ARBOR_SIGN_IN_WINDOW_SECONDS: positiveInt(900),
  /**
   * Reverse proxies whose X-Forwarded-For is believed (comma-separated addresses or CIDRs, or
   * proxy-addr's names `loopback`, `linklocal`, `uniquelocal`). Unset: the TCP peer is the client.
   */
  ARBOR_TRUSTED_PROXIES: optionalString,
  /**
   * OpenTelemetry (server/events/otel/): the collector's OTLP/HTTP base URL. Unset (the default):
   * nothing is exported and no exporter is started. Spans go to <endpoint>/v1/traces, metrics to
   * <endpoint>/v1/metrics, as JSON.
   */
  OTEL_EXPORTER_OTLP_ENDPOINT: optionalString.pipe(z.url().optional()),
  /** Headers sent with every export, the standard `key=value,key2=value2` (values URL-encoded). */
  OTEL_EXPORTER_OTLP_HEADERS: optionalString.transform((value, context) => {
    const headers: Record<string, string> = {};
    for (const pair of (value ?? "").split(",").filter((part) => part.trim() !== "")) {
      const at = pair.indexOf("=");
      const key = pair.slice(0, at).trim();
      const decoded = at > 0 && key !== "" ? decodedHeaderValue(pair.slice(at + 1).trim()) : null;
      if (decoded === null) {
        // Never echo the pair: a header usually carries an API key.
        context.addIssue({ code: "custom", message: "expected key=value pairs separated by commas" });
        return z.NEVER;
      }
      headers[key] = decoded;
    }
    return headers;
  }),
  OTEL_SERVICE_NAME: z.string().trim().min(1).default("arbor"),
  /** How often metrics are exported, in ms (the standard variable; 60 s by default). */
  OTEL_METRIC_EXPORT_INTERVAL: z.coerce.number().int().min(100).default(60_000),
  ARBOR_LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
  /** Rounds of the crash soak (server/orchestrator/crash-soak.integration.test.ts): 20 in the test command. */
  ARBOR_SOAK_ROUNDS: positiveInt(20),
});

export type Env = z.infer<typeof schema> & {
  DATABASE_URL: string;
  NEXTAUTH_SECRET: string;
  dataDir: string;
  /** The 32-byte key behind ARBOR_SECRET_KEY (or the generated one). */
  secretKey: Buffer;
  /** The files the secrets not set in the environment are read from (null: set in the environment). */
  secretFiles: SecretFiles;
  /** The host's upstream proxy from HTTPS_PROXY / HTTP_PROXY (either case), or null. */
  upstreamProxy: { host: string; port: number } | null;
};

function upstreamProxyOf(values: z.infer<typeof schema>): { host: string; port: number } | null {
  const raw = values.HTTPS_PROXY ?? values.https_proxy ?? values.HTTP_PROXY ?? values.http_proxy;
  if (!raw) return null;
  try {
    const url = new URL(raw.includes("://") ? raw : `http://${raw}`);
    return { host: url.hostname.replace(/^\[|\]$/g, ""), port: Number(url.port) || 80 };
  } catch {
    throw new Error(`Invalid environment:\n  HTTPS_PROXY/HTTP_PROXY: not a proxy address (${raw}).`);
  }
}

/** Where the generated secrets live; the start command creates the ones that are not null. */
export interface SecretFiles {
  authSecret: string | null;
  secretKey: string | null;
}

function readSecretFile(file: string, variable: string): string {
  if (!existsSync(file)) {
    throw new Error(
      `Invalid environment:\n  ${variable}: not set, and ${file} does not exist. The start command (scripts/start.sh) creates it; or set ${variable}.`,
    );
  }
  return readFileSync(file, "utf8").trim();
}

/** The key generated into the data directory; a damaged file is named in the error, not guessed around. */
function generatedSecretKey(file: string): Buffer {
  const text = readSecretFile(file, "ARBOR_SECRET_KEY");
  try {
    return parseSecretKey(text);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new Error(
      `Invalid environment:\n  ${file}: ${reason}. Restore the file from a backup or set ARBOR_SECRET_KEY; deleting it makes stored API keys unreadable.`,
    );
  }
}

/** A value computed on first use and kept. */
function once<T>(compute: () => T): () => T {
  let value: { ok: T } | undefined;
  return () => {
    value ??= { ok: compute() };
    return value.ok;
  };
}

export function parseEnv(source: Record<string, string | undefined>): Env {
  const parsed = schema.safeParse(source);
  if (!parsed.success) {
    const problems = issuesOf(parsed.error).map((problem) => `  ${problem.path}: ${problem.message}`);
    throw new Error(`Invalid environment:\n${problems.join("\n")}`);
  }
  const values = parsed.data;
  const dataDir = path.resolve(values.ARBOR_DATA_DIR);
  const localRoot = values.ARBOR_IMPORT_LOCAL_ROOT;
  if (localRoot && !path.relative(dataDir, path.resolve(localRoot)).startsWith("..")) {
    throw new Error(
      `Invalid environment:\n  ARBOR_IMPORT_LOCAL_ROOT: ${localRoot} is Arbor's data directory or inside it; name a directory outside ${dataDir}.`,
    );
  }
  const secretFiles: SecretFiles = {
    authSecret: values.NEXTAUTH_SECRET ? null : path.join(dataDir, "auth-secret"),
    secretKey: values.ARBOR_SECRET_KEY ? null : path.join(dataDir, "secret-key"),
  };
  const authSecret = once(() =>
    secretFiles.authSecret === null
      ? (values.NEXTAUTH_SECRET as string)
      : readSecretFile(secretFiles.authSecret, "NEXTAUTH_SECRET"),
  );
  const secretKey = once(() =>
    secretFiles.secretKey === null
      ? parseSecretKey(values.ARBOR_SECRET_KEY as string)
      : generatedSecretKey(secretFiles.secretKey),
  );
  return {
    ...values,
    dataDir,
    DATABASE_URL: values.DATABASE_URL ?? `file:${path.join(dataDir, "arbor.db")}`,
    upstreamProxy: upstreamProxyOf(values),
    secretFiles,
    // Read on first use, so the build and `prisma generate` need no secrets (see the top of this file).
    get NEXTAUTH_SECRET() {
      return authSecret();
    },
    get secretKey() {
      return secretKey();
    },
  };
}

export const env: Env = parseEnv(process.env);
