import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import {
  AnthropicRequestError,
  anthropicErrorBody,
  messageBody,
  messageEvents,
  parseMessagesRequest,
} from "./anthropic-wire";
import type { ChatMessage, ChatRequest, FakeReply, Scenario } from "./request";
import { replyFor, SCENARIOS } from "./scenarios";
import { completionBody, completionChunks, errorBody, usageFor } from "./wire";

/**
 * A fake model server (node:http, no framework) so the real AI SDK provider code runs over real HTTP
 * in tests and e2e: OpenAI's `POST /v1/chat/completions` (JSON or SSE) and `GET /v1/models`, and
 * Anthropic's `POST /v1/messages` (JSON or SSE), all answering from the same scripted scenarios.
 * The scenario comes from the `x-fake-scenario` header, else the server's own, else "default".
 * Two conventions script failures without headers (so the settings page can trigger them): an API key
 * starting with `bad-` gets HTTP 401, and a model named `no-such-…` gets HTTP 404.
 */

type Dialect = "openai" | "anthropic";

export interface RecordedRequest {
  method: string;
  path: string;
  headers: Record<string, string | undefined>;
  body: unknown;
  scenario?: string;
}

export interface FakeModelServer {
  url: string;
  port: number;
  requests: RecordedRequest[];
  close(): Promise<void>;
}

export interface FakeModelServerOptions {
  /** 0 or absent: a free port chosen by the OS. */
  port?: number;
  host?: string;
  scenario?: Scenario | string;
}

const MAX_BODY_BYTES = 5 * 1024 * 1024;
const MODEL_IDS = ["fake-model"];

class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly param: string | null = null,
    readonly code: string | null = null,
  ) {
    super(message);
  }
}

function presentedKey(headers: Record<string, string | undefined>): string {
  return headers["x-api-key"] ?? headers.authorization?.replace(/^Bearer\s+/i, "") ?? "";
}

/** The failures a real provider gives for a wrong key or model name, before any scenario runs. */
function checkKeyAndModel(request: ChatRequest): void {
  if (presentedKey(request.headers).startsWith("bad-"))
    throw new HttpError(401, "Incorrect API key provided.", null, "invalid_api_key");
  if (request.model.startsWith("no-such-"))
    throw new HttpError(404, `The model \`${request.model}\` does not exist.`, "model", "model_not_found");
}

function flattenHeaders(request: IncomingMessage): Record<string, string | undefined> {
  const headers: Record<string, string | undefined> = {};
  for (const [key, value] of Object.entries(request.headers))
    headers[key] = Array.isArray(value) ? value.join(", ") : value;
  return headers;
}

async function readBody(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY_BYTES) throw new HttpError(413, `Request body larger than ${MAX_BODY_BYTES} bytes`);
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString("utf8");
}

function sendJson(response: ServerResponse, status: number, body: unknown): void {
  response.writeHead(status, { "content-type": "application/json" });
  response.end(JSON.stringify(body));
}

function parseChatRequest(raw: string, headers: Record<string, string | undefined>): ChatRequest {
  let body: unknown;
  try {
    body = JSON.parse(raw);
  } catch {
    throw new HttpError(400, "The request body is not valid JSON.");
  }
  if (typeof body !== "object" || body === null)
    throw new HttpError(400, "The request body must be a JSON object.");
  const { model, messages, tools, stream } = body as Record<string, unknown>;
  if (typeof model !== "string" || model === "")
    throw new HttpError(400, "you must provide a model parameter", "model");
  if (!Array.isArray(messages) || messages.length === 0) {
    throw new HttpError(400, "'messages' must be a non-empty array", "messages");
  }
  const toolNames = Array.isArray(tools)
    ? tools
        .map((tool: { function?: { name?: unknown } }) => tool?.function?.name)
        .filter((name) => typeof name === "string")
    : [];
  return { model, messages: messages as ChatMessage[], toolNames, stream: stream === true, headers };
}

function parseAnthropic(raw: string, headers: Record<string, string | undefined>): ChatRequest {
  let body: unknown;
  try {
    body = JSON.parse(raw);
  } catch {
    throw new HttpError(400, "The request body is not valid JSON.");
  }
  try {
    return parseMessagesRequest(body, headers);
  } catch (error) {
    if (error instanceof AnthropicRequestError) throw new HttpError(400, error.message);
    throw error;
  }
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const onAbort = () => {
      clearTimeout(timer);
      resolve();
    };
    // Removed when the timer fires: a streamed answer sleeps once per chunk on the same signal.
    const timer = setTimeout(() => {
      signal.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    signal.addEventListener("abort", onAbort, { once: true });
  });
}

function errorBodyFor(dialect: Dialect, status: number, message: string, param: string | null = null) {
  return dialect === "anthropic" ? anthropicErrorBody(status, message) : errorBody(status, message, param);
}

async function sendReply(
  response: ServerResponse,
  request: ChatRequest,
  reply: FakeReply,
  closed: AbortSignal,
  dialect: Dialect,
) {
  if (reply.type === "delay") {
    await sleep(reply.ms, closed);
    if (!closed.aborted) await sendReply(response, request, reply.reply, closed, dialect);
    return;
  }
  if (reply.type === "http-error")
    return sendJson(response, reply.status, errorBodyFor(dialect, reply.status, reply.message));
  const id = Math.random().toString(36).slice(2, 12);
  const usage = usageFor(JSON.stringify(request.messages), reply);
  if (!request.stream) {
    const body =
      dialect === "anthropic"
        ? messageBody(reply, request.model, id, usage)
        : completionBody(reply, request.model, id, usage);
    return sendJson(response, 200, body);
  }
  response.writeHead(200, {
    "content-type": "text/event-stream",
    "cache-control": "no-cache",
    connection: "keep-alive",
  });
  const frames =
    dialect === "anthropic"
      ? messageEvents(reply, request.model, id, usage).map(
          ([event, data]) => `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`,
        )
      : completionChunks(reply, request.model, id, usage).map(
          (chunk) => `data: ${JSON.stringify(chunk)}\n\n`,
        );
  const chunkDelayMs = reply.type === "text" ? (reply.chunkDelayMs ?? 0) : 0;
  for (const frame of frames) {
    if (closed.aborted) return;
    response.write(frame);
    // Yield between chunks so they leave as separate writes, like a real token stream.
    if (chunkDelayMs > 0) await sleep(chunkDelayMs, closed);
    else await new Promise((resolve) => setImmediate(resolve));
  }
  response.end(dialect === "anthropic" ? undefined : "data: [DONE]\n\n");
}

function pickScenario(headers: Record<string, string | undefined>, fallback: Scenario): Scenario {
  const name = headers["x-fake-scenario"];
  if (name === undefined) return fallback;
  const scenario = SCENARIOS[name];
  if (!scenario)
    throw new HttpError(400, `Unknown fake scenario "${name}"; known: ${Object.keys(SCENARIOS).join(", ")}`);
  return scenario;
}

export function resolveScenario(scenario: Scenario | string | undefined): Scenario {
  if (typeof scenario === "object") return scenario;
  const found = SCENARIOS[scenario ?? "default"];
  if (!found)
    throw new Error(`Unknown fake scenario "${scenario}"; known: ${Object.keys(SCENARIOS).join(", ")}`);
  return found;
}

export async function startFakeModelServer(options: FakeModelServerOptions = {}): Promise<FakeModelServer> {
  const serverScenario = resolveScenario(options.scenario);
  const requests: RecordedRequest[] = [];

  async function handle(req: IncomingMessage, res: ServerResponse, dialectOf: (d: Dialect) => void) {
    const path = new URL(req.url ?? "/", "http://fake").pathname.replace(/\/+$/, "");
    const headers = flattenHeaders(req);
    const raw = await readBody(req);
    const recorded: RecordedRequest = { method: req.method ?? "", path, headers, body: raw };
    requests.push(recorded);
    if (req.method === "GET" && (path === "" || path === "/v1")) {
      return sendJson(res, 200, {
        status: "ok",
        scenario: serverScenario.name,
        scenarios: Object.keys(SCENARIOS),
      });
    }
    if (req.method === "GET" && path === "/v1/models") {
      const data = MODEL_IDS.map((id) => ({ id, object: "model", created: 0, owned_by: "arbor-fake" }));
      return sendJson(res, 200, { object: "list", data });
    }
    const dialect: Dialect = path === "/v1/messages" ? "anthropic" : "openai";
    dialectOf(dialect);
    if (path !== "/v1/chat/completions" && path !== "/v1/messages")
      throw new HttpError(404, `Unknown path ${req.method} ${path}`);
    if (req.method !== "POST") throw new HttpError(405, `Use POST for ${path}`);
    const chat = dialect === "anthropic" ? parseAnthropic(raw, headers) : parseChatRequest(raw, headers);
    recorded.body = JSON.parse(raw);
    checkKeyAndModel(chat);
    const scenario = pickScenario(headers, serverScenario);
    recorded.scenario = scenario.name;
    const closed = new AbortController();
    res.on("close", () => closed.abort());
    await sendReply(res, chat, replyFor(scenario, chat), closed.signal, dialect);
  }

  const server = createServer((req, res) => {
    let dialect: Dialect = "openai";
    handle(req, res, (found) => {
      dialect = found;
    }).catch((error: unknown) => {
      const status = error instanceof HttpError ? error.status : 500;
      const message = error instanceof Error ? error.message : String(error);
      if (res.headersSent) res.destroy();
      else if (dialect === "anthropic") sendJson(res, status, anthropicErrorBody(status, message));
      else {
        const body = errorBody(status, message, error instanceof HttpError ? error.param : null);
        if (error instanceof HttpError && error.code) body.error.code = error.code;
        sendJson(res, status, body);
      }
    });
  });

  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, options.host ?? "127.0.0.1", () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/v1`,
    port,
    requests,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      }),
  };
}
