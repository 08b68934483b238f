import "server-only";
import { UserFacingError } from "@/server/domain/errors";
import type { PullRequestRequest } from "@/server/domain/remote/pull-request";
import { withoutSecrets } from "@/server/projects/remote-access";

/**
 * Opens a pull request through GitHub's REST API (`POST /repos/{owner}/{repo}/pulls`), with the
 * remote's token. GitHub's own message comes back when it refuses (a pull request that already
 * exists, a branch it does not have), never the token.
 */
export async function openPullRequest(
  apiBase: string,
  repository: { owner: string; repo: string },
  token: string,
  request: PullRequestRequest,
): Promise<{ number: number; url: string }> {
  const url = `${apiBase.replace(/\/+$/, "")}/repos/${encodeURIComponent(repository.owner)}/${encodeURIComponent(repository.repo)}/pulls`;
  let response: Response;
  try {
    response = await fetch(url, {
      method: "POST",
      redirect: "error",
      signal: AbortSignal.timeout(30_000),
      headers: {
        accept: "application/vnd.github+json",
        authorization: `Bearer ${token}`,
        "content-type": "application/json",
        "user-agent": "Arbor",
        "x-github-api-version": "2022-11-28",
      },
      body: JSON.stringify(request),
    });
  } catch (error) {
    throw new UserFacingError(
      `Could not reach GitHub's API at ${apiBase}: ${withoutSecrets(String((error as Error).message), [token])}`,
      "PRECONDITION_FAILED",
    );
  }
  const answer = (await response.json().catch(() => ({}))) as {
    number?: number;
    html_url?: string;
    message?: string;
    errors?: Array<{ message?: string; code?: string; field?: string }>;
  };
  if (response.status === 201 && typeof answer.number === "number" && typeof answer.html_url === "string")
    return { number: answer.number, url: answer.html_url };
  const details = (answer.errors ?? [])
    .map((error) => error.message ?? [error.field, error.code].filter(Boolean).join(" "))
    .filter(Boolean);
  const message = [answer.message ?? `HTTP ${response.status}`, ...details].join(": ");
  throw new UserFacingError(
    `GitHub did not open the pull request: ${withoutSecrets(message, [token]).slice(0, 1_000)}`,
    "PRECONDITION_FAILED",
  );
}
