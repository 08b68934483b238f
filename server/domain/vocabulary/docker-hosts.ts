/**
 * ARBOR_DOCKER_HOSTS: the Docker engines sandboxes may run on, comma-separated, in order of preference
 * when they are equally free. Each entry is `local` (the default socket), `unix:///path/to/docker.sock`
 * or `tcp://host:port?tls=/dir` (mutual TLS with `ca.pem`, `cert.pem` and `key.pem` from that directory;
 * plain TCP is refused: the Engine API is root on that host). `max=N` caps the sessions placed there
 * (default 32); `priority=N` (-100 to 100, default 0) ranks hosts: a new session goes to a host of a
 * lower priority only when none of a higher one can take it (dedicated sandbox hosts first, the app's own
 * engine as the spare, say). Options follow `?`, `local?priority=-1` included. Unset: the one local
 * engine, exactly as without this setting.
 */
export interface DockerHostConfig {
  /** Stable name recorded on each session placed there: `local`, the socket path or `host:port`. */
  id: string;
  kind: "local" | "unix" | "tcp";
  socketPath?: string;
  host?: string;
  port?: number;
  /** Directory with ca.pem, cert.pem and key.pem (tcp only). */
  tlsDir?: string;
  maxSessions: number;
  /** Placement tries higher priorities first; absent means 0. */
  priority?: number;
}

const DEFAULT_MAX_SESSIONS = 32;

function maxOf(params: URLSearchParams, entry: string): number {
  const raw = params.get("max");
  if (raw === null) return DEFAULT_MAX_SESSIONS;
  const max = Number(raw);
  if (!Number.isInteger(max) || max < 1 || max > 10_000)
    throw new Error(`${entry}: max must be a whole number from 1 to 10000`);
  return max;
}

/** `priority=N` when given (absent stays absent, so a plain entry reads exactly as before). */
function priorityOf(params: URLSearchParams, entry: string): { priority?: number } {
  const raw = params.get("priority");
  if (raw === null) return {};
  const priority = Number(raw);
  if (!Number.isInteger(priority) || priority < -100 || priority > 100)
    throw new Error(`${entry}: priority must be a whole number from -100 to 100`);
  return { priority };
}

function parseEntry(entry: string): DockerHostConfig {
  const [address = "", query = ""] = entry.split("?", 2);
  const params = new URLSearchParams(query);
  for (const key of params.keys())
    if (key !== "tls" && key !== "max" && key !== "priority")
      throw new Error(`${entry}: unknown option ${key} (tls, max, priority)`);
  const maxSessions = maxOf(params, entry);
  const priority = priorityOf(params, entry);
  if (address === "local") {
    if (params.has("tls")) throw new Error(`${entry}: tls is for tcp hosts`);
    return { id: "local", kind: "local", maxSessions, ...priority };
  }
  if (address.startsWith("unix://")) {
    const socketPath = address.slice("unix://".length);
    if (!socketPath.startsWith("/")) throw new Error(`${entry}: a unix socket needs an absolute path`);
    return { id: socketPath, kind: "unix", socketPath, maxSessions, ...priority };
  }
  const tcp = /^tcp:\/\/([A-Za-z0-9.-]+|\[[0-9a-fA-F:]+\]):(\d{1,5})$/.exec(address);
  if (tcp) {
    const host = tcp[1] as string;
    const port = Number(tcp[2]);
    if (port < 1 || port > 65_535) throw new Error(`${entry}: port out of range`);
    const tlsDir = params.get("tls");
    if (!tlsDir?.startsWith("/"))
      throw new Error(`${entry}: a tcp host needs ?tls=/absolute/dir with ca.pem, cert.pem and key.pem`);
    return { id: `${host}:${port}`, kind: "tcp", host, port, tlsDir, maxSessions, ...priority };
  }
  throw new Error(`${entry}: expected local, unix:///path or tcp://host:port?tls=/dir`);
}

/** Parses the setting; throws one message per bad entry. Empty or unset: the one local engine. */
export function parseDockerHosts(value: string | undefined): DockerHostConfig[] {
  const entries = (value ?? "")
    .split(",")
    .map((entry) => entry.trim())
    .filter((entry) => entry !== "");
  if (entries.length === 0) return [{ id: "local", kind: "local", maxSessions: DEFAULT_MAX_SESSIONS }];
  const problems: string[] = [];
  const hosts: DockerHostConfig[] = [];
  for (const entry of entries) {
    try {
      hosts.push(parseEntry(entry));
    } catch (error) {
      problems.push(error instanceof Error ? error.message : String(error));
    }
  }
  const ids = hosts.map((host) => host.id);
  for (const id of new Set(ids))
    if (ids.filter((other) => other === id).length > 1) problems.push(`${id} is listed twice`);
  if (problems.length > 0) throw new Error(problems.join("; "));
  return hosts;
}
