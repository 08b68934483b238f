import { createHmac, timingSafeEqual } from "node:crypto";
import { z } from "zod";
import { UserFacingError } from "@/server/domain/errors";
import type { TerminalFrame } from "@/server/domain/vocabulary/terminal";
import type { TerminalActor, TrackedFrame } from "./hub";

/**
 * The instance-to-instance terminal protocol (server/terminal/cluster.ts): one POST endpoint
 * (`/api/internal/terminal`) on every instance, answering only requests signed with a key derived from
 * the cluster's shared NEXTAUTH_SECRET. The calling instance has already run the tRPC procedure's
 * membership check; the holder only acts on its own hub and never relays again (no loops).
 */
export const PEER_PATH = "/api/internal/terminal";
export const PEER_SIGNATURE_HEADER = "x-arbor-peer-signature";
/** A signed request older than this is refused (a captured one cannot be replayed later). */
const MAX_AGE_MS = 30_000;

const Size = z.object({ cols: z.number().int(), rows: z.number().int() });
const Actor = z.object({ userId: z.string().max(200), name: z.string().max(500) });
export const PeerRequest = z.discriminatedUnion("op", [
  z.object({ op: z.literal("open"), sessionId: z.string().max(200), size: Size, by: Actor }),
  z.object({
    op: z.literal("write"),
    sessionId: z.string().max(200),
    data: z.string().max(64 * 1024),
    by: Actor,
  }),
  z.object({ op: z.literal("resize"), sessionId: z.string().max(200), size: Size }),
  z.object({ op: z.literal("close"), sessionId: z.string().max(200), by: Actor }),
  z.object({
    op: z.literal("follow"),
    sessionId: z.string().max(200),
    lastId: z.string().max(200).nullable(),
  }),
]);
export type PeerRequest = z.infer<typeof PeerRequest>;

const UserError = z.object({
  error: z.object({
    message: z.string(),
    code: z.enum(["NOT_FOUND", "CONFLICT", "BAD_REQUEST", "PRECONDITION_FAILED", "FORBIDDEN"]),
  }),
});

function peerKey(sharedSecret: string): Buffer {
  return createHmac("sha256", sharedSecret).update("arbor terminal relay v1").digest();
}

function sign(key: Buffer, at: number, body: string): string {
  return createHmac("sha256", key).update(`${at}.${body}`).digest("hex");
}

/** The signature header's value for `body` sent at `at` (ms since the epoch). */
export function peerSignatureHeader(sharedSecret: string, body: string, at = Date.now()): string {
  return `t=${at},s=${sign(peerKey(sharedSecret), at, body)}`;
}

/** True when `header` signs `body` with the cluster's key, recently. */
export function verifyPeerSignature(
  sharedSecret: string,
  header: string | null,
  body: string,
  now = Date.now(),
): boolean {
  const match = /^t=(\d{1,15}),s=([0-9a-f]{64})$/.exec(header ?? "");
  if (!match?.[1] || !match[2]) return false;
  const at = Number(match[1]);
  if (Math.abs(now - at) > MAX_AGE_MS) return false;
  const expected = Buffer.from(sign(peerKey(sharedSecret), at, body), "hex");
  return timingSafeEqual(expected, Buffer.from(match[2], "hex"));
}

/** The holder's side of a user-facing refusal, sent back so the caller shows the same message. */
export function peerErrorResponse(error: UserFacingError): Response {
  return Response.json({ error: { message: error.message, code: error.code } }, { status: 409 });
}

/** Calls another instance's terminal endpoint. */
export class TerminalPeerClient {
  constructor(private readonly sharedSecret: string) {}

  private async post(address: string, request: PeerRequest, signal?: AbortSignal): Promise<Response> {
    const body = JSON.stringify(request);
    const response = await fetch(new URL(PEER_PATH, address), {
      method: "POST",
      headers: {
        "content-type": "application/json",
        [PEER_SIGNATURE_HEADER]: peerSignatureHeader(this.sharedSecret, body),
      },
      body,
      ...(signal ? { signal } : {}),
    });
    if (response.ok) return response;
    const refusal = UserError.safeParse(await response.json().catch(() => null));
    if (refusal.success) throw new UserFacingError(refusal.data.error.message, refusal.data.error.code);
    throw new Error(`The instance holding this terminal answered ${response.status}.`);
  }

  async open(address: string, sessionId: string, size: { cols: number; rows: number }, by: TerminalActor) {
    const response = await this.post(address, { op: "open", sessionId, size, by });
    return z.object({ terminalId: z.string(), created: z.boolean() }).parse(await response.json());
  }

  async write(address: string, sessionId: string, data: string, by: TerminalActor): Promise<void> {
    await this.post(address, { op: "write", sessionId, data, by });
  }

  async resize(address: string, sessionId: string, size: { cols: number; rows: number }): Promise<void> {
    await this.post(address, { op: "resize", sessionId, size });
  }

  async close(address: string, sessionId: string, by: TerminalActor): Promise<boolean> {
    const response = await this.post(address, { op: "close", sessionId, by });
    return z.object({ closed: z.boolean() }).parse(await response.json()).closed;
  }

  /** The holder's frames, one JSON line each, until the holder ends the stream or `signal` aborts. */
  async *follow(
    address: string,
    sessionId: string,
    lastId: string | null,
    signal: AbortSignal,
  ): AsyncGenerator<TrackedFrame> {
    const response = await this.post(address, { op: "follow", sessionId, lastId }, signal);
    if (!response.body) return;
    const decoder = new TextDecoder();
    let pending = "";
    const reader = response.body.getReader();
    try {
      for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) {
        pending += decoder.decode(chunk.value, { stream: true });
        let newline = pending.indexOf("\n");
        while (newline >= 0) {
          const line = pending.slice(0, newline);
          pending = pending.slice(newline + 1);
          if (line.trim() !== "") yield JSON.parse(line) as { id: string; frame: TerminalFrame };
          newline = pending.indexOf("\n");
        }
      }
    } catch (error) {
      if (!signal.aborted) throw error;
    } finally {
      await reader.cancel().catch(() => undefined);
    }
  }
}
