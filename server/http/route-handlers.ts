import type { AnyTRPCRouter } from "@trpc/server";
import { fetchRequestHandler } from "@trpc/server/adapters/fetch";
import { NextRequest } from "next/server";
import {
  payloadTooLargeResponse,
  readCappedBody,
  trpcBodyLimit,
  trpcPaths,
  trpcTooLarge,
  withCappedBody,
} from "./body-limit";

/**
 * Every `app/**\/route.ts` handler is built here, so none reads a body without a cap
 * (`route-files.test.ts` checks that each route file goes through these builders).
 */

/**
 * A tRPC endpoint whose request bodies are capped by `trpcBodyLimit`: small for anyone not signed
 * in, larger per procedure for signed-in callers. Over the cap, tRPC itself answers 413 with a
 * PAYLOAD_TOO_LARGE error, so the browser shows its message like any other.
 */
export function trpcRouteHandler<TRouter extends AnyTRPCRouter>(options: {
  endpoint: string;
  router: TRouter;
  createContext: () => Promise<Parameters<TRouter["createCaller"]>[0]>;
  /** Reads the session cookie or the bearer token only (never the body). */
  signedIn: (request: Request) => Promise<boolean>;
}): (request: Request) => Promise<Response> {
  return async (request) => {
    let req = request;
    if (request.body) {
      const paths = trpcPaths(request.url, options.endpoint);
      const limit = trpcBodyLimit(paths, await options.signedIn(request));
      req = withCappedBody(request, limit, () => trpcTooLarge(limit));
    }
    return fetchRequestHandler({
      endpoint: options.endpoint,
      req,
      router: options.router,
      createContext: options.createContext,
    });
  };
}

type RouteHandler<Context> = (request: NextRequest, context: Context) => Promise<Response> | Response;

/**
 * A route handler that gets its body only after it was read within `limit` bytes; a larger body is
 * answered 413 without the handler running. Requests without a body pass straight through.
 */
export function withBodyLimit<Context>(limit: number, handler: RouteHandler<Context>): RouteHandler<Context> {
  return async (request, context) => {
    if (!request.body) return handler(request, context);
    const body = await readCappedBody(request, limit);
    if (!body) return payloadTooLargeResponse(limit);
    const capped = new NextRequest(request.url, {
      method: request.method,
      headers: request.headers,
      body,
      signal: request.signal,
    });
    return handler(capped, context);
  };
}
