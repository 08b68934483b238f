import type { APIResponse, Page } from "@playwright/test";

/**
 * Calls one tRPC procedure over HTTP as the page's signed-in user (its cookies), the way a script
 * outside the app would: superjson's envelope (`{ json: … }`) in and out, no batching. Returns the
 * HTTP status and the decoded data or error.
 */
export async function callTrpc(
  page: Page,
  path: string,
  input: unknown,
  type: "query" | "mutation",
): Promise<{ status: number; data: unknown; error: { message: string; code: string } | null }> {
  const url = `/api/trpc/${path}`;
  const response: APIResponse =
    type === "query"
      ? await page.request.get(`${url}?input=${encodeURIComponent(JSON.stringify({ json: input }))}`)
      : await page.request.post(url, { data: { json: input } });
  const body = (await response.json()) as {
    result?: { data?: { json?: unknown } };
    error?: { json?: { message?: string; data?: { code?: string } } };
  };
  const error = body.error?.json
    ? { message: body.error.json.message ?? "", code: body.error.json.data?.code ?? "" }
    : null;
  return { status: response.status(), data: body.result?.data?.json, error };
}
