import "server-only";
/** One line of the egress proxy's access log (see ACCESS_LOG_FORMAT), as data. */
export interface ProxyLogLine {
  at: number;
  client: string;
  method: string;
  host: string;
  port: number;
  status: number;
  bytesOut: number;
  bytesIn: number;
  allowed: boolean;
  /** Why it was refused: raw-ip, not-listed, method, phase-off, private-address; null when allowed. */
  reason: string | null;
}

function hostPort(method: string, url: string): { host: string; port: number } | null {
  if (method === "CONNECT") {
    const match = /^\[?([^\]]*?)\]?:([0-9]+)$/.exec(url);
    return match ? { host: (match[1] ?? "").toLowerCase(), port: Number(match[2]) } : null;
  }
  try {
    const parsed = new URL(url);
    const port = parsed.port ? Number(parsed.port) : parsed.protocol === "https:" ? 443 : 80;
    return { host: parsed.hostname.replace(/^\[|\]$/g, "").toLowerCase(), port };
  } catch {
    return null;
  }
}

/** Parses one line; null for a line that is not a request (blank, or squid's own noise). */
export function parseAccessLogLine(line: string): ProxyLogLine | null {
  const fields = line.trim().split(/\s+/);
  if (fields.length < 10) return null;
  const [time, client, method, url, status, bytesOut, bytesIn, result, note, external] = fields as [
    string,
    string,
    string,
    string,
    string,
    string,
    string,
    string,
    string,
    string,
  ];
  const target = hostPort(method, url);
  if (!target) return null;
  const denied = result.includes("DENIED");
  const reason = !denied
    ? null
    : note !== "-"
      ? note
      : external !== "-" && external !== "allowed"
        ? external
        : "denied";
  return {
    at: Math.round(Number(time) * 1000),
    client,
    method,
    host: target.host,
    port: target.port,
    status: Number(status) || 0,
    bytesOut: Number(bytesOut) || 0,
    bytesIn: Number(bytesIn) || 0,
    allowed: !denied,
    reason,
  };
}
