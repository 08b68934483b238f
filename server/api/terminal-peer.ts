import "server-only";
import { appContext } from "@/server/app-context";
import { UserFacingError } from "@/server/domain/errors";
import { env } from "@/server/env";
import { logger } from "@/server/logger";
import type { TerminalHub } from "@/server/terminal/hub";
import {
  PEER_SIGNATURE_HEADER,
  PeerRequest,
  peerErrorResponse,
  verifyPeerSignature,
} from "@/server/terminal/peer";

/**
 * The holder's side of the terminal relay (server/terminal/cluster.ts): another instance of this
 * cluster, which already checked the person's membership, asks this one to act on a terminal it holds.
 * Only signed requests are answered (a key derived from the shared NEXTAUTH_SECRET, see peer.ts); an
 * instance not in a relaying cluster answers 404 to everything. Acts on this process's hub only.
 */
export async function handleTerminalPeerRequest(request: Request): Promise<Response> {
  // Not `instanceof ClusterTerminals`: Next.js bundles this route apart from instrumentation, which made
  // the context, so the class here is another copy.
  const hub = appContext().relayedHub;
  if (hub === null) return new Response(null, { status: 404 });
  const body = await request.text();
  if (!verifyPeerSignature(env.NEXTAUTH_SECRET, request.headers.get(PEER_SIGNATURE_HEADER), body))
    return new Response(null, { status: 403 });
  const parsed = PeerRequest.safeParse(parseJson(body));
  if (!parsed.success) return new Response(null, { status: 400 });
  const call = parsed.data;
  try {
    switch (call.op) {
      case "open":
        return Response.json(await hub.open(call.sessionId, call.size, call.by));
      case "write":
        await hub.write(call.sessionId, call.data, call.by);
        return Response.json({ ok: true });
      case "resize":
        await hub.resize(call.sessionId, call.size);
        return Response.json({ ok: true });
      case "close":
        return Response.json({ closed: await hub.close(call.sessionId, call.by) });
      case "follow":
        return followResponse(hub.follow.bind(hub), call.sessionId, call.lastId, request.signal);
    }
  } catch (error) {
    // By name too: the hub's error class may be another bundle's copy (see above).
    if (error instanceof UserFacingError || (error instanceof Error && error.name === "UserFacingError"))
      return peerErrorResponse(error as UserFacingError);
    logger.error({ err: error, op: call.op }, "terminal relay request failed");
    return new Response(null, { status: 500 });
  }
}

/** The hub's frames as one JSON line each, until the relaying instance hangs up. */
function followResponse(
  follow: TerminalHub["follow"],
  sessionId: string,
  lastId: string | null,
  requestSignal: AbortSignal,
): Response {
  const stop = new AbortController();
  requestSignal.addEventListener("abort", () => stop.abort(), { once: true });
  const encoder = new TextEncoder();
  const frames = follow(sessionId, lastId, stop.signal);
  const stream = new ReadableStream<Uint8Array>({
    async pull(controller) {
      const next = await frames.next();
      if (next.done) controller.close();
      else controller.enqueue(encoder.encode(`${JSON.stringify(next.value)}\n`));
    },
    async cancel() {
      stop.abort();
      await frames.return(undefined);
    },
  });
  return new Response(stream, {
    headers: {
      "content-type": "application/x-ndjson",
      "cache-control": "no-store",
      "x-accel-buffering": "no",
    },
  });
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}
