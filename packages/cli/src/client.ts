import {
  createTRPCClient,
  httpLink,
  httpSubscriptionLink,
  splitLink,
  type TRPCClient,
  TRPCClientError,
} from "@trpc/client";
import { EventSource } from "eventsource";
import superjson from "superjson";
import type { AppRouter } from "@/server/api/root";
import { CliError, EXIT } from "./exit-codes";
import type { Credentials } from "./settings";

/**
 * The server over HTTP only: tRPC calls at `/api/trpc`, and the live event stream from the same
 * SSE subscription the browser uses (`session.events`), each request carrying the API token as
 * `Authorization: Bearer`. The type of the router is the server's own, so a renamed procedure
 * fails the typecheck here too.
 */
export type ArborClient = TRPCClient<AppRouter>;

export function connect(credentials: Credentials): ArborClient {
  const url = new URL("/api/trpc", credentials.url).toString();
  const authorization = `Bearer ${credentials.token}`;
  const authedFetch: typeof fetch = (input, init) =>
    fetch(input, { ...init, headers: { ...(init?.headers as Record<string, string>), authorization } });
  return createTRPCClient<AppRouter>({
    links: [
      splitLink({
        condition: (op) => op.type === "subscription",
        true: httpSubscriptionLink({
          url,
          transformer: superjson,
          EventSource,
          eventSourceOptions: { fetch: authedFetch },
        }),
        false: httpLink({ url, transformer: superjson, headers: { authorization } }),
      }),
    ],
  });
}

/** A server's refusal or a network failure as the message and exit code the person gets. */
export function asCliError(error: unknown, server?: string): CliError {
  if (error instanceof CliError) return error;
  if (error instanceof TRPCClientError) {
    const code = (error.data as { code?: string } | undefined)?.code;
    if (code === "UNAUTHORIZED" || code === "FORBIDDEN")
      return new CliError(error.message, EXIT.UNAUTHORIZED);
    if (!code && /fetch failed|ECONNREFUSED|ENOTFOUND/i.test(error.message))
      return new CliError(`Cannot reach the Arbor server${server ? ` at ${server}` : ""}: ${error.message}`);
    return new CliError(error.message);
  }
  return new CliError(error instanceof Error ? error.message : String(error));
}
