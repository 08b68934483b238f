import { describe, expect, it } from "vitest";
import { imageFolderNamedBy, isProtectedPath, protectionOf } from "./protected-paths";

describe("protected paths", () => {
  it.each([
    ".git",
    ".git/config",
    ".git/hooks/pre-commit",
    "vendor/lib/.git/config",
    ".GIT/hooks/pre-commit",
    ".orchestration/active_intents.yaml",
    ".orchestration/agent_trace.jsonl",
    "package.json",
    "packages/web/package.json",
    "PACKAGE.JSON",
    ".npmrc",
    ".yarnrc.yml",
    ".pnpmfile.cjs",
    ".husky/pre-push",
    ".husky/_/husky.sh",
    ".githooks/pre-commit",
    "scripts/hooks/install.sh",
    ".github/workflows/ci.yml",
    ".github/workflows/new-workflow-that-does-not-exist.yml",
    ".envrc",
    ".env",
    ".env.local",
    "apps/api/.env.production",
    ".env.example",
    ".env-staging",
    "/workspace/.env",
    "./package.json",
    "src/../.git/HEAD",
    "AGENTS.md",
    "packages/api/AGENTS.md",
    "CLAUDE.md",
    "docs/claude.md",
  ])("%s is protected", (path) => {
    expect(isProtectedPath(path)).toBe(true);
  });

  it.each([
    "src/index.ts",
    "Makefile",
    "src/hooks/useAuth.ts",
    "package-lock.json",
    "docs/.github.md",
    ".gitignore",
    ".github/CODEOWNERS",
    "environment.ts",
    "src/.envoy/config.ts",
    "AGENTS.md.bak",
    "docs/agents.mdx",
  ])("%s is not protected", (path) => {
    expect(isProtectedPath(path)).toBe(false);
  });

  it("says why", () => {
    expect(protectionOf("package.json")).toContain("scripts");
    expect(protectionOf(".env")).toContain("secrets");
  });

  it("fails closed for paths that are not in the workspace", () => {
    expect(protectionOf("../x")).toContain("not a workspace path");
    expect(isProtectedPath("/etc/passwd")).toBe(true);
  });
});

describe("the repository's Arbor settings (issue #20)", () => {
  it("`.arbor/config.yaml` always asks: it changes what later runs may do", () => {
    expect(protectionOf(".arbor/config.yaml")).toContain(".arbor/config.yaml");
    // It names the setup command later sessions are offered (approved again by a person on the card).
    expect(protectionOf(".arbor/config.yaml")).toContain("setup command");
    expect(protectionOf("/workspace/.arbor/config.yaml")).not.toBeNull();
  });
});

describe("the project's sandbox image files", () => {
  it.each([
    ".arbor/Dockerfile",
    ".arbor",
    ".devcontainer/devcontainer.json",
    ".devcontainer/docker/Dockerfile",
  ])("%s is protected", (path) => {
    expect(protectionOf(path)).toMatch(/sandbox image|dev container/);
  });

  it.each([
    [".arbor/Dockerfile", ".arbor"],
    ["./.devcontainer", ".devcontainer"],
    ["/workspace/.arbor/x", ".arbor"],
    ["--file=.arbor/Dockerfile", ".arbor"],
    ["src/.arbor", ".arbor"],
    [".arbor-notes.md", null],
    ["docs/arbor/x", null],
    ["my.devcontainer.json", null],
  ])("a command word %s names %s", (word, folder) => {
    expect(imageFolderNamedBy(word)).toBe(folder);
  });
});
