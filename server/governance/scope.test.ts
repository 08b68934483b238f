import { describe, expect, it } from "vitest";
import {
  checkPathAccess,
  isInScope,
  matchScope,
  normaliseScopePattern,
  type RealpathPort,
  resolveWorkspacePath,
} from "./scope";

describe("resolveWorkspacePath", () => {
  it.each([
    ["src/a.ts", "/workspace/src/a.ts", "src/a.ts"],
    ["./src/./a.ts", "/workspace/src/a.ts", "src/a.ts"],
    ["src//lib///a.ts", "/workspace/src/lib/a.ts", "src/lib/a.ts"],
    ["src/lib/../a.ts", "/workspace/src/a.ts", "src/a.ts"],
    ["/workspace/src/a.ts", "/workspace/src/a.ts", "src/a.ts"],
    ["/workspace/../workspace/src", "/workspace/src", "src"],
    ["src/", "/workspace/src", "src"],
    [".", "/workspace", "."],
    ["/workspace", "/workspace", "."],
    ["a/b/../../c", "/workspace/c", "c"],
    ["%41.txt", "/workspace/%41.txt", "%41.txt"],
    ["café/naïve.ts", "/workspace/café/naïve.ts", "café/naïve.ts"],
  ])("%j → %s", (path, absolute, relative) => {
    expect(resolveWorkspacePath(path)).toEqual({ ok: true, absolute, relative });
  });

  it.each([
    ["..", "outside"],
    ["../etc/passwd", "outside"],
    ["./a/../../b", "outside"],
    ["/workspace/../etc", "outside"],
    ["/workspace/..", "outside"],
    ["/etc/passwd", "outside"],
    ["/", "outside"],
    ["/workspacefoo/x", "outside"],
    ["src/../../../../../../etc/shadow", "outside"],
    ["a\0b", "NUL"],
    ["src/\nx", "control"],
    ["", "empty"],
    ["   ", "empty"],
    ["..\\..\\etc", "backslash"],
    ["%2e%2e/etc", "percent-encoded"],
    ["src/%2F..%2Fetc", "percent-encoded"],
    ["%5c..%5cetc", "percent-encoded"],
    ["．．／etc", "outside"],
    ["src/．．／．．／etc", "outside"],
  ])("refuses %j (%s)", (path, reason) => {
    const result = resolveWorkspacePath(path);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.reason).toContain(reason);
  });

  it("resolves against another cwd inside the workspace and still refuses escapes", () => {
    expect(resolveWorkspacePath("../b", { cwd: "/workspace/src" })).toMatchObject({ relative: "b" });
    expect(resolveWorkspacePath("../../b", { cwd: "/workspace/src" }).ok).toBe(false);
    expect(resolveWorkspacePath("x", { cwd: "relative" }).ok).toBe(false);
  });
});

describe("owned_scope matching", () => {
  const scope = ["src/auth/**", "src/middleware/jwt.ts"];

  it.each([
    ["src/auth/login.ts", "in"],
    ["src/auth/deep/nested/x.ts", "in"],
    ["src/auth/.eslintrc", "in"],
    ["/workspace/src/auth/x.ts", "in"],
    ["src/middleware/jwt.ts", "in"],
    ["src/middleware/jwt.tsx", "out"],
    ["src/billing/invoice.ts", "out"],
    ["src/auth/../billing/x.ts", "out"],
    ["src/authx/y.ts", "out"],
    ["src/auth", "in"], // globstar also matches the directory itself
    ["../src/auth/x.ts", "out"],
    ["SRC/auth/x.ts", "case-only"],
    ["src/Auth/x.ts", "case-only"],
    ["src/middleware/JWT.ts", "case-only"],
  ] as const)("%j is %s", (path, match) => {
    expect(matchScope(path, scope)).toBe(match);
    expect(isInScope(path, scope)).toBe(match === "in");
  });

  it.each([
    ["!src/secret/**", null],
    ["../**", null],
    ["src/../../**", null],
    ["/etc/**", null],
    ["", null],
    ["./src/**", "src/**"],
    ["/workspace/src/**", "src/**"],
    ["src/**", "src/**"],
  ])("normalises the pattern %j to %j", (pattern, normalised) => {
    expect(normaliseScopePattern(pattern)).toBe(normalised);
  });

  it("never lets a negated pattern widen the scope", () => {
    expect(isInScope("anything/at/all.ts", ["!src/secret/**"])).toBe(false);
    expect(isInScope("anything.ts", [])).toBe(false);
  });

  it("treats the workspace root itself as out of scope", () => {
    expect(isInScope(".", ["**"])).toBe(false);
    expect(isInScope("x", ["**"])).toBe(true);
  });
});

/** `realpath -m` over a map of symlinks (absolute path → target, absolute or relative). */
function fakeRealpath(links: Record<string, string>): RealpathPort {
  return async (path) => {
    let pending = path.split("/").filter(Boolean);
    let resolved: string[] = [];
    let hops = 0;
    while (pending.length > 0) {
      const [segment, ...rest] = pending;
      pending = rest;
      if (segment === undefined || segment === ".") continue;
      if (segment === "..") {
        resolved.pop();
        continue;
      }
      const target = links[`/${[...resolved, segment].join("/")}`];
      if (target === undefined) {
        resolved.push(segment);
        continue;
      }
      hops += 1;
      if (hops > 40) throw new Error("too many levels of symbolic links");
      if (target.startsWith("/")) resolved = [];
      pending = [...target.split("/").filter(Boolean), ...pending];
    }
    return `/${resolved.join("/")}`;
  };
}

describe("checkPathAccess", () => {
  const scope = ["src/**"];
  const links = fakeRealpath({
    "/workspace/src/escape": "/etc",
    "/workspace/src/up": "../..",
    "/workspace/src/sibling": "../docs",
    "/workspace/src/inside": "lib",
    "/workspace/src/hook.sh": "/workspace/.git/hooks/pre-commit",
    "/workspace/src/dangling": "/etc/not-yet",
    "/workspace/src/loop": "/workspace/src/loop",
    "/workspace/docs/into-src": "/workspace/src/lib",
  });

  it("allows a plain path in scope, existing or not", async () => {
    expect(await checkPathAccess("src/new/file.ts", scope, links)).toEqual({
      ok: true,
      absolute: "/workspace/src/new/file.ts",
      relative: "src/new/file.ts",
      protectedReason: null,
    });
  });

  it("follows a symlink that stays in scope and reports the real path", async () => {
    expect(await checkPathAccess("src/inside/a.ts", scope, links)).toMatchObject({
      ok: true,
      relative: "src/lib/a.ts",
    });
  });

  it.each([
    ["src/escape/passwd", "symlink-escape"],
    ["src/up/etc/passwd", "symlink-escape"],
    ["src/sibling/readme.md", "symlink-escape"],
    ["src/dangling", "symlink-escape"],
    ["docs/into-src/a.ts", "out-of-scope"],
    ["src/../docs/a.md", "out-of-scope"],
    ["../etc/passwd", "invalid-path"],
    ["src/loop/x", "unresolvable"],
  ])("refuses %j (%s)", async (path, code) => {
    expect(await checkPathAccess(path, scope, links)).toMatchObject({ ok: false, code });
  });

  it("reports protection found on the real path behind a link", async () => {
    const access = await checkPathAccess("src/hook.sh", ["src/**", ".git/**"], links);
    expect(access).toMatchObject({ ok: true, relative: ".git/hooks/pre-commit" });
    if (access.ok) expect(access.protectedReason).toContain("git");
  });

  it("refuses what a lying realpath returns outside the workspace", async () => {
    const liar: RealpathPort = async () => "relative/path";
    expect(await checkPathAccess("src/a.ts", scope, liar)).toMatchObject({
      ok: false,
      code: "symlink-escape",
    });
  });

  it("never calls realpath for a path already refused lexically", async () => {
    let calls = 0;
    const counting: RealpathPort = async (path) => {
      calls += 1;
      return path;
    };
    await checkPathAccess("docs/x", scope, counting);
    await checkPathAccess("/etc/x", scope, counting);
    expect(calls).toBe(0);
  });
});
