import path from "node:path";
import ts from "typescript";

/**
 * Finds every place in the code base that reaches the sandbox's `exec`, `readFile` or `writeFile`
 * directly, by type, not by name: a call on anything whose member is declared by the `Sandbox`
 * interface (`server/sandbox/types.ts`) or by its exec port for the lower layers (`SandboxExec`,
 * `server/domain/sandbox-port.ts`), including through `Pick<Sandbox, …>`, destructuring
 * (`const { exec } = sandbox`) and element access (`sandbox["exec"]`). `RegExp.exec` or
 * `fs.readFile` never match. Used by the one-door test; slow (it type-checks), so tests only.
 */

export const SANDBOX_METHODS = ["exec", "readFile", "writeFile"] as const;

export interface DirectUse {
  /** Relative to the repository root, with `/`. */
  file: string;
  line: number;
  method: string;
}

export function findDirectSandboxUses(root: string, sourceDirs: readonly string[]): DirectUse[] {
  const configPath = path.join(root, "tsconfig.json");
  const config = ts.readConfigFile(configPath, ts.sys.readFile);
  const parsed = ts.parseJsonConfigFileContent(config.config, ts.sys, root);
  const inScope = (file: string) => {
    const relative = path.relative(root, file).split(path.sep).join("/");
    return (
      sourceDirs.some((dir) => relative.startsWith(`${dir}/`)) &&
      !/\.test\.tsx?$/.test(relative) &&
      !relative.startsWith("server/generated/")
    );
  };
  const roots = parsed.fileNames.filter(inScope);
  const program = ts.createProgram(roots, { ...parsed.options, noEmit: true, incremental: false });
  const checker = program.getTypeChecker();
  const uses: DirectUse[] = [];

  const isSandboxMember = (symbol: ts.Symbol | undefined): boolean =>
    (symbol?.declarations ?? []).some((declaration) => {
      const owner = declaration.parent;
      if (!ts.isInterfaceDeclaration(owner)) return false;
      const file = declaration.getSourceFile().fileName;
      return (
        (owner.name.text === "Sandbox" && file.endsWith("server/sandbox/types.ts")) ||
        (owner.name.text === "SandboxExec" && file.endsWith("server/domain/sandbox-port.ts"))
      );
    });

  for (const source of program.getSourceFiles()) {
    if (!inScope(source.fileName)) continue;
    const file = path.relative(root, source.fileName).split(path.sep).join("/");
    const record = (node: ts.Node, method: string) =>
      uses.push({ file, line: source.getLineAndCharacterOfPosition(node.getStart()).line + 1, method });
    const visit = (node: ts.Node): void => {
      if (ts.isPropertyAccessExpression(node) && isMethod(node.name.text)) {
        if (isSandboxMember(checker.getSymbolAtLocation(node.name))) record(node, node.name.text);
      } else if (
        ts.isElementAccessExpression(node) &&
        ts.isStringLiteralLike(node.argumentExpression) &&
        isMethod(node.argumentExpression.text)
      ) {
        const property = checker.getTypeAtLocation(node.expression).getProperty(node.argumentExpression.text);
        if (isSandboxMember(property)) record(node, node.argumentExpression.text);
      } else if (ts.isObjectBindingPattern(node)) {
        const type = checker.getTypeAtLocation(node);
        for (const element of node.elements) {
          const name = element.propertyName ?? element.name;
          if (!ts.isIdentifier(name) || !isMethod(name.text)) continue;
          if (isSandboxMember(type.getProperty(name.text))) record(element, name.text);
        }
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
  return uses;
}

function isMethod(name: string): boolean {
  return (SANDBOX_METHODS as readonly string[]).includes(name);
}
