import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

/**
 * Keeps the class of "a route reads a body without a cap" from coming back: every route file under
 * app/ builds its handlers with `trpcRouteHandler` or `withBodyLimit` (server/http/route-handlers.ts),
 * and exports no bare handler function.
 */
const root = path.resolve(import.meta.dirname, "../..");
const routeFiles = (readdirSync(path.join(root, "app"), { recursive: true }) as string[])
  .filter((file) => path.basename(file) === "route.ts")
  .map((file) => path.join("app", file));

describe("every app route handler caps its request body", () => {
  it("finds the route files", () => {
    expect(routeFiles.length).toBeGreaterThanOrEqual(3);
  });

  it.each(routeFiles)("%s is built with trpcRouteHandler or withBodyLimit", (file) => {
    const source = readFileSync(path.join(root, file), "utf8");
    expect(source).toMatch(/\b(trpcRouteHandler|withBodyLimit)\(/);
    expect(source).not.toMatch(/export\s+(async\s+)?function\s+(GET|POST|PUT|PATCH|DELETE)\b/);
  });
});
