"use client";

import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import {
  createTRPCClient,
  httpBatchLink,
  httpSubscriptionLink,
  splitLink,
  TRPCClientError,
} from "@trpc/client";
import { createTRPCContext } from "@trpc/tanstack-react-query";
import { SessionProvider } from "next-auth/react";
import { type ReactNode, useState } from "react";
import superjson from "superjson";
import type { AppRouter } from "@/server/api/root";

export const { TRPCProvider, useTRPC, useTRPCClient } = createTRPCContext<AppRouter>();

function makeQueryClient() {
  return new QueryClient({
    defaultOptions: {
      queries: {
        staleTime: 5_000,
        // A missing or forbidden resource will not appear by asking again.
        retry: (count, error) =>
          !(
            error instanceof TRPCClientError &&
            ["NOT_FOUND", "UNAUTHORIZED", "FORBIDDEN"].includes(error.data?.code)
          ) && count < 2,
      },
    },
  });
}

function makeTrpcClient() {
  return createTRPCClient<AppRouter>({
    links: [
      splitLink({
        condition: (op) => op.type === "subscription",
        true: httpSubscriptionLink({ url: "/api/trpc", transformer: superjson }),
        false: httpBatchLink({ url: "/api/trpc", transformer: superjson }),
      }),
    ],
  });
}

export function Providers({ children }: { children: ReactNode }) {
  const [queryClient] = useState(makeQueryClient);
  const [trpcClient] = useState(makeTrpcClient);
  return (
    <SessionProvider>
      <QueryClientProvider client={queryClient}>
        <TRPCProvider trpcClient={trpcClient} queryClient={queryClient}>
          {children}
        </TRPCProvider>
      </QueryClientProvider>
    </SessionProvider>
  );
}

/** The message a person should read for a failed call: ours for known errors, a generic one otherwise. */
export function describeError(error: unknown): string {
  if (error instanceof TRPCClientError) {
    const fieldErrors = (error.data as { zodError?: { fieldErrors?: Record<string, string[]> } } | undefined)
      ?.zodError?.fieldErrors;
    const first = fieldErrors ? Object.values(fieldErrors).flat()[0] : undefined;
    if (first) return first;
    if (error.message === "Failed to fetch")
      return "The Arbor server is not reachable. Check that it is running.";
    return error.message;
  }
  return error instanceof Error ? error.message : "Something went wrong.";
}
