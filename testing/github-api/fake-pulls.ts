import { readFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import { createRequire } from "node:module";
import type { AddressInfo } from "node:net";
import Ajv from "ajv";
import addFormats from "ajv-formats";

/**
 * A tiny local server playing GitHub's "create a pull request" operation for tests (issue #21.3).
 * Every request is validated in-process against that operation in GitHub's published OpenAPI
 * description (`@octokit/openapi`): the path, the headers GitHub asks for, and the JSON body against
 * the operation's request schema (no property GitHub does not define). A valid request gets 201 with
 * GitHub's own example pull request; an invalid one 422 with what was wrong, as GitHub answers.
 */

const OPERATION_PATH = "/repos/{owner}/{repo}/pulls";

export interface RecordedPullRequest {
  owner: string;
  repo: string;
  authorization: string | undefined;
  body: Record<string, unknown>;
}

const require = createRequire(import.meta.url);

function operation() {
  // Read as text, not imported: 13 MB of JSON is parsed once, outside any bundler or transform.
  const file = require.resolve("@octokit/openapi/generated/api.github.com.json");
  const description = JSON.parse(readFileSync(file, "utf8"));
  const post = description.paths[OPERATION_PATH].post;
  const schema = post.requestBody.content["application/json"].schema;
  const example = description.components.examples["pull-request"].value;
  return { schema: { ...schema, additionalProperties: false }, example };
}

export async function startFakeGitHub(port = 0): Promise<{
  url: string;
  requests: RecordedPullRequest[];
  close: () => Promise<void>;
}> {
  const { schema, example } = operation();
  const ajv = new Ajv({ allErrors: true, strict: false });
  addFormats(ajv);
  // GitHub's own format for "owner/repo" (used by `head_repo`).
  ajv.addFormat("repo.nwo", /^[\w.-]+\/[\w.-]+$/);
  const validate = ajv.compile(schema);
  const requests: RecordedPullRequest[] = [];
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      const answer = (status: number, body: unknown) => {
        response.writeHead(status, { "content-type": "application/json" });
        response.end(JSON.stringify(body));
      };
      const match = /^\/repos\/([\w.-]+)\/([\w.-]+)\/pulls$/.exec(request.url ?? "");
      if (request.method !== "POST" || !match) return answer(404, { message: "Not Found" });
      if (!/^Bearer \S+$/.test(request.headers.authorization ?? ""))
        return answer(401, { message: "Requires authentication" });
      if (!(request.headers.accept ?? "").includes("application/vnd.github+json"))
        return answer(415, { message: "Expected Accept: application/vnd.github+json" });
      let body: unknown;
      try {
        body = JSON.parse(Buffer.concat(chunks).toString("utf8"));
      } catch {
        return answer(400, { message: "Problems parsing JSON" });
      }
      if (!validate(body))
        return answer(422, {
          message: "Validation Failed",
          errors: (validate.errors ?? []).map((error) => ({
            message: `${error.instancePath || "body"} ${error.message}`,
          })),
        });
      const [, owner = "", repo = ""] = match;
      requests.push({
        owner,
        repo,
        authorization: request.headers.authorization,
        body: body as Record<string, unknown>,
      });
      const number = requests.length;
      answer(201, {
        ...example,
        number,
        html_url: `https://github.com/${owner}/${repo}/pull/${number}`,
        title: (body as { title?: string }).title,
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));
  const { port: bound } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${bound}`,
    requests,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
