import { approvalBinding } from "@/server/policy/approval/binding";

/**
 * The setup command a project gets when nobody set one: read from the lock files at the root of its
 * default branch. Python installs into a virtual environment at /workspace/.venv (Debian's pip refuses
 * system installs, PEP 668). Several ecosystems: their commands joined with `&&`.
 */
export function detectSetupCommand(rootFiles: readonly string[]): string | null {
  const has = (name: string) => rootFiles.includes(name);
  const commands: string[] = [];
  if (has("pnpm-lock.yaml")) commands.push("pnpm install --frozen-lockfile");
  else if (has("yarn.lock"))
    commands.push(has(".yarnrc.yml") ? "yarn install --immutable" : "yarn install --frozen-lockfile");
  else if (has("package-lock.json") || has("npm-shrinkwrap.json")) commands.push("npm ci");
  else if (has("package.json")) commands.push("npm install");
  if (has("poetry.lock")) commands.push("poetry install");
  else if (has("requirements.txt"))
    commands.push("python3 -m venv /workspace/.venv && /workspace/.venv/bin/pip install -r requirements.txt");
  return commands.length > 0 ? commands.join(" && ") : null;
}

/**
 * What a person's approval of a setup command is bound to: exactly this text, as the dispatch's
 * approval binding of the `setup.run` call, so the stored approval is what the one door checks.
 */
export function setupCommandHash(command: string): string {
  return approvalBinding("setup.run", { command });
}
