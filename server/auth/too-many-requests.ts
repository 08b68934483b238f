import "server-only";

/**
 * next-auth answers every refused credentials sign-in 401 and carries the reason in the URL it
 * returns. A refusal for too many attempts becomes a 429 with `Retry-After`, so clients and proxies
 * see a rate limit for what it is.
 */
const TOO_MANY = /^Too many sign-in attempts\. Try again in (\d+) s\.$/;

function errorOf(url: string | null): string | null {
  if (!url) return null;
  try {
    return new URL(url, "http://arbor.invalid").searchParams.get("error");
  } catch {
    return null;
  }
}

export async function asTooManyRequests(response: Response): Promise<Response> {
  if (response.status !== 401) return response;
  let error = errorOf(response.headers.get("location"));
  let body: string | null = null;
  if (!error && response.headers.get("content-type")?.includes("application/json")) {
    body = await response.text();
    try {
      error = errorOf((JSON.parse(body) as { url?: string }).url ?? null);
    } catch {
      error = null;
    }
  }
  const seconds = error ? TOO_MANY.exec(error)?.[1] : undefined;
  if (!seconds && body === null) return response;
  const headers = new Headers(response.headers);
  if (seconds) headers.set("retry-after", seconds);
  return new Response(body ?? response.body, { status: seconds ? 429 : response.status, headers });
}
