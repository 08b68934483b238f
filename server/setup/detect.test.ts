import { describe, expect, it } from "vitest";
import { detectSetupCommand, setupCommandHash } from "./detect";

describe("setup command detection", () => {
  it("reads the lock file", () => {
    expect(detectSetupCommand(["package.json", "package-lock.json"])).toBe("npm ci");
    expect(detectSetupCommand(["package.json", "pnpm-lock.yaml", "package-lock.json"])).toBe(
      "pnpm install --frozen-lockfile",
    );
    expect(detectSetupCommand(["package.json", "yarn.lock", ".yarnrc.yml"])).toBe("yarn install --immutable");
    expect(detectSetupCommand(["package.json", "yarn.lock"])).toBe("yarn install --frozen-lockfile");
    expect(detectSetupCommand(["package.json"])).toBe("npm install");
    expect(detectSetupCommand(["poetry.lock", "pyproject.toml"])).toBe("poetry install");
    expect(detectSetupCommand(["requirements.txt"])).toBe(
      "python3 -m venv /workspace/.venv && /workspace/.venv/bin/pip install -r requirements.txt",
    );
    expect(detectSetupCommand(["package-lock.json", "requirements.txt"])).toMatch(
      /^npm ci && python3 -m venv/,
    );
    expect(detectSetupCommand(["README.md"])).toBeNull();
  });

  it("binds an approval to the exact text", () => {
    expect(setupCommandHash("npm ci")).toBe(setupCommandHash("npm ci"));
    expect(setupCommandHash("npm ci")).not.toBe(setupCommandHash("npm ci "));
  });
});
