import { TRPCError } from "@trpc/server";

/**
 * Request bodies are capped per route before anything parses them, and before authentication: an
 * unauthenticated 100 MB sign-up was once parsed whole. A body is counted as it streams in; the first
 * byte past the cap stops the read, so memory never holds more than the cap. A declared
 * `Content-Length` over the cap is refused without reading at all.
 */
export const KIB = 1024;
export const MIB = 1024 * KIB;

export const BODY_LIMITS = {
  /** Anyone not signed in (sign-up, sign-in, next-auth's forms): small forms only. */
  anonymous: 64 * KIB,
  /** A signed-in person's ordinary calls: tasks, approvals, settings, terminal input. */
  signedIn: 1 * MIB,
  /** Files card saves of up to 1 MiB of text, JSON-escaped. */
  workspaceSave: 8 * MIB,
  /** A session export file (20 million characters at most, see capture.importSession). */
  sessionImport: 48 * MIB,
} as const;

/** Signed-in procedures allowed more than `signedIn`, by tRPC path. */
const LARGER_PROCEDURES: Record<string, number> = {
  "workspace.save": BODY_LIMITS.workspaceSave,
  "capture.importSession": BODY_LIMITS.sessionImport,
};

/** The procedure paths of a tRPC request (`/api/trpc/a.b,c.d` → `["a.b", "c.d"]`). */
export function trpcPaths(url: string, endpoint = "/api/trpc"): string[] {
  const pathname = new URL(url).pathname;
  if (!pathname.startsWith(`${endpoint}/`)) return [];
  return decodeURIComponent(pathname.slice(endpoint.length + 1))
    .split(",")
    .filter(Boolean);
}

/** The cap for a tRPC request: a batch gets the smallest of its procedures', so none can raise another's. */
export function trpcBodyLimit(paths: string[], signedIn: boolean): number {
  if (!signedIn || paths.length === 0) return BODY_LIMITS.anonymous;
  return Math.min(...paths.map((each) => LARGER_PROCEDURES[each] ?? BODY_LIMITS.signedIn));
}

export function describeBytes(bytes: number): string {
  return bytes >= MIB ? `${bytes / MIB} MB` : `${Math.round(bytes / KIB)} KB`;
}

export function tooLargeMessage(limit: number): string {
  return `The request is larger than ${describeBytes(limit)}, the limit for this address; nothing was read past it.`;
}

function declaredLength(request: Request): number | null {
  const header = request.headers.get("content-length");
  if (header === null || !/^\d+$/.test(header.trim())) return null;
  return Number(header);
}

/**
 * `request`'s body as a stream that errors with `error` (a PAYLOAD_TOO_LARGE TRPCError for tRPC, so
 * tRPC answers 413 in its own shape) once more than `limit` bytes arrived.
 */
export function cappedBody(
  request: Request,
  limit: number,
  error: () => Error,
): ReadableStream<Uint8Array> | null {
  if (!request.body) return null;
  const declared = declaredLength(request);
  if (declared !== null && declared > limit) {
    void request.body.cancel();
    return new ReadableStream({
      start(controller) {
        controller.error(error());
      },
    });
  }
  let seen = 0;
  return request.body.pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        seen += chunk.byteLength;
        if (seen > limit) controller.error(error());
        else controller.enqueue(chunk);
      },
    }),
  );
}

/** A copy of `request` whose body is capped (`duplex: "half"` is what a streamed body needs). */
export function withCappedBody(request: Request, limit: number, error: () => Error): Request {
  const body = cappedBody(request, limit, error);
  if (!body) return request;
  return new Request(request.url, {
    method: request.method,
    headers: request.headers,
    body,
    signal: request.signal,
    duplex: "half",
  } as RequestInit);
}

export function trpcTooLarge(limit: number): TRPCError {
  return new TRPCError({ code: "PAYLOAD_TOO_LARGE", message: tooLargeMessage(limit) });
}

export class BodyTooLargeError extends Error {
  constructor(readonly limit: number) {
    super(tooLargeMessage(limit));
    this.name = "BodyTooLargeError";
  }
}

/**
 * The whole body, read up to `limit` bytes, or null when it is larger (the read stops there). For
 * handlers that need the bytes before they run (next-auth's forms).
 */
export async function readCappedBody(request: Request, limit: number): Promise<Buffer<ArrayBuffer> | null> {
  const body = cappedBody(request, limit, () => new BodyTooLargeError(limit));
  if (!body) return Buffer.alloc(0);
  const chunks: Uint8Array[] = [];
  const reader = body.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      chunks.push(value);
    }
  } catch (error) {
    if (error instanceof BodyTooLargeError) return null;
    throw error;
  }
  return Buffer.concat(chunks);
}

export function payloadTooLargeResponse(limit: number): Response {
  return Response.json({ error: tooLargeMessage(limit) }, { status: 413 });
}
