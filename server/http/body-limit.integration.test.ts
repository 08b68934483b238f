import { NextRequest } from "next/server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { appRouter } from "@/server/api/root";
import type { PrismaClient } from "@/server/generated/prisma/client";
import { createTestDb } from "@/testing/db/test-db";
import { BODY_LIMITS, MIB, trpcBodyLimit } from "./body-limit";
import { trpcRouteHandler, withBodyLimit } from "./route-handlers";

let db: PrismaClient;
let cleanup: () => Promise<void>;
beforeAll(async () => ({ db, cleanup } = await createTestDb()));
afterAll(async () => cleanup());

/**
 * A body streamed in 16 KB chunks, `size` bytes in all, that counts how much the server pulled. A
 * "100 MB" body costs nothing unless it is read, which is the point.
 */
function streamedBody(prefix: string, size: number, filler = "x", suffix = "") {
  const encoder = new TextEncoder();
  const head = encoder.encode(prefix);
  const tail = encoder.encode(suffix);
  let produced = 0;
  const chunk = encoder.encode(filler.repeat(16 * 1024));
  const counter = { pulled: 0 };
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (produced === 0) {
        controller.enqueue(head);
        produced += head.byteLength;
        counter.pulled = produced;
        return;
      }
      const left = size - produced - tail.byteLength;
      if (left <= 0) {
        if (tail.byteLength) controller.enqueue(tail);
        produced += tail.byteLength;
        counter.pulled = produced;
        controller.close();
        return;
      }
      const next = left >= chunk.byteLength ? chunk : chunk.subarray(0, left);
      controller.enqueue(next);
      produced += next.byteLength;
      counter.pulled = produced;
    },
  });
  return { stream, counter };
}

/** A sign-up batch whose JSON is exactly `size` bytes (the name is the filler). */
function signUpBody(size: number) {
  const prefix = '{"0":{"json":{"email":"a@example.com","password":"long enough","name":"';
  const suffix = '"}}}';
  return streamedBody(prefix, size, "x", suffix);
}

type User = { id: string; name: string; email: string };
const handlerFor = (signedIn: boolean, user: User | null = null) =>
  trpcRouteHandler({
    endpoint: "/api/trpc",
    router: appRouter,
    createContext: async () => ({ db, user }),
    signedIn: async () => signedIn,
  });

function post(url: string, body: ReadableStream<Uint8Array>, headers: Record<string, string> = {}) {
  return new Request(url, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body,
    duplex: "half",
  } as RequestInit);
}

describe("tRPC bodies are capped before parsing and before authentication", () => {
  const signUpUrl = "http://arbor.test/api/trpc/auth.signUp?batch=1";

  it("an unauthenticated sign-up at the cap + 1 byte gets 413, streamed without a Content-Length", async () => {
    const { stream, counter } = signUpBody(BODY_LIMITS.anonymous + 1);
    const response = await handlerFor(false)(post(signUpUrl, stream));
    expect(response.status).toBe(413);
    const [answer] = (await response.json()) as {
      error: { json: { message: string; data: { code: string } } };
    }[];
    expect(answer?.error.json.data.code).toBe("PAYLOAD_TOO_LARGE");
    expect(answer?.error.json.message).toMatch(/larger than 64 KB/);
    expect(await db.user.count()).toBe(0);
    expect(counter.pulled).toBeLessThanOrEqual(BODY_LIMITS.anonymous + 1);
  });

  it("at exactly the cap the body is parsed (and refused by validation, a 400 — not a 413)", async () => {
    const { stream } = signUpBody(BODY_LIMITS.anonymous);
    const response = await handlerFor(false)(post(signUpUrl, stream));
    expect(response.status).toBe(400);
    expect(await response.text()).toMatch(/at most 100 characters/);
  });

  it("a 100 MB body stops being read at the cap", async () => {
    const { stream, counter } = signUpBody(100 * MIB);
    const response = await handlerFor(false)(post(signUpUrl, stream));
    expect(response.status).toBe(413);
    expect(counter.pulled).toBeLessThan(BODY_LIMITS.anonymous + 64 * 1024);
  });

  it("a declared Content-Length over the cap is refused without reading a byte past the first chunk", async () => {
    const { stream, counter } = signUpBody(100 * MIB);
    const response = await handlerFor(false)(
      post(signUpUrl, stream, { "content-length": String(100 * MIB) }),
    );
    expect(response.status).toBe(413);
    expect(counter.pulled).toBeLessThanOrEqual(16 * 1024 + 100);
  });

  it("the session import gets its own larger cap, only when signed in; a batch gets its smallest cap", async () => {
    expect(trpcBodyLimit(["capture.importSession"], true)).toBe(BODY_LIMITS.sessionImport);
    expect(trpcBodyLimit(["capture.importSession"], false)).toBe(BODY_LIMITS.anonymous);
    expect(trpcBodyLimit(["capture.importSession", "auth.signUp"], true)).toBe(BODY_LIMITS.signedIn);
    const url = "http://arbor.test/api/trpc/capture.importSession?batch=1";
    const user = await db.user.create({ data: { email: "importer@example.com", name: "Importer" } });
    const over = streamedBody('{"0":{"json":{"projectId":"p","file":"', BODY_LIMITS.sessionImport + 1);
    expect((await handlerFor(true, user)(post(url, over.stream))).status).toBe(413);
    expect(over.counter.pulled).toBeLessThanOrEqual(BODY_LIMITS.sessionImport + 1);
    // Anonymous callers never get the import's cap: refused (401) before the body is read, or 413.
    const anonymous = streamedBody('{"0":{"json":{"projectId":"p","file":"', 100 * MIB);
    expect([401, 413]).toContain((await handlerFor(false)(post(url, anonymous.stream))).status);
    expect(anonymous.counter.pulled).toBeLessThanOrEqual(BODY_LIMITS.anonymous + 1);
  });
});

describe("other route handlers (next-auth's sign-in form) go through withBodyLimit", () => {
  const seen: number[] = [];
  const limited = withBodyLimit(BODY_LIMITS.anonymous, async (request: NextRequest) => {
    seen.push((await request.arrayBuffer()).byteLength);
    return new Response("ok");
  });
  const form = (size: number) =>
    new NextRequest("http://arbor.test/api/auth/callback/credentials", {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: streamedBody("password=", size).stream,
      duplex: "half",
    } as ConstructorParameters<typeof NextRequest>[1]);

  it("answers 413 at the cap + 1 without running the handler, and passes the cap itself through", async () => {
    const over = await limited(form(BODY_LIMITS.anonymous + 1), undefined);
    expect(over.status).toBe(413);
    expect(await over.json()).toEqual({ error: expect.stringMatching(/larger than 64 KB/) });
    expect(seen).toEqual([]);
    const at = await limited(form(BODY_LIMITS.anonymous), undefined);
    expect(at.status).toBe(200);
    expect(seen).toEqual([BODY_LIMITS.anonymous]);
  });
});
