/**
 * Arbor's layer rules (issue #18), for dependency-cruiser. A gate: the test command's "layers" stage
 * (`scripts/layers/check.sh`, `npm run deps:check`) fails on any violation with the rule's name;
 * `npm run deps:report` prints them with a count per rule and never fails.
 * `scripts/layers/layer-rules.integration.test.ts` proves each rule fires.
 *
 * Layers, bottom to top: a module may import its own layer and the layers below, never one above.
 * Tests and test support (one tree: testing/) are not checked by the layer rules (they may reach any
 * layer they test), but production code may never import test support.
 *
 * Two graphs: this file checks every import, type-only ones included (a type from a higher layer is
 * still a wrong direction); `.dependency-cruiser.runtime.cjs` checks what reaches the browser bundle,
 * where type-only imports are erased.
 */
const { CLIENT, LAYERS, RIVA_LAYERS, SERVER_ONLY, TESTS, under } = require("./scripts/layers/layers.cjs");

/** One rule per layer: nothing in it imports a layer above it. */
const layerRules = LAYERS.slice(0, -1).map((layer, index) => ({
  name: `layer-${layer.name}`,
  comment: `${layer.name} imports only ${LAYERS.slice(0, index + 1)
    .map((l) => l.name)
    .join(", ")} (order: ${LAYERS.map((l) => l.name).join(" → ")})`,
  severity: "error",
  from: { path: under(layer.paths), pathNot: TESTS },
  to: { path: under(LAYERS.slice(index + 1).flatMap((l) => l.paths)) },
}));

/** The same inside riva: decide/ (pure) never imports perform/ (effects) or the engine. */
const rivaRules = RIVA_LAYERS.slice(0, -1).map((layer, index) => ({
  name: `layer-${layer.name}`,
  comment: `${layer.name} imports only ${RIVA_LAYERS.slice(0, index + 1)
    .map((l) => l.name)
    .join(", ")} of riva (order: ${RIVA_LAYERS.map((l) => l.name).join(" → ")})`,
  severity: "error",
  from: { path: under(layer.paths), pathNot: TESTS },
  to: { path: under(RIVA_LAYERS.slice(index + 1).flatMap((l) => l.paths)) },
}));

const config = {
  forbidden: [
    ...layerRules,
    ...rivaRules,
    {
      name: "no-circular",
      comment:
        "No import cycles (type-only ones included: they tie the layers as much). The generated Prisma client is not ours.",
      severity: "error",
      from: { pathNot: `${TESTS}|^server/generated/` },
      to: { circular: true },
    },
    {
      name: "browser-runtime-imports-server",
      comment: "Client files import from server/ only the domain layer at run time.",
      severity: "error",
      from: { path: CLIENT },
      to: { path: "^server/", pathNot: "^server/domain/", dependencyTypesNot: ["type-only"] },
    },
    {
      name: "browser-types-from-server",
      comment: "Client files take types only from the domain layer and the tRPC router's type (server/api/).",
      severity: "error",
      from: { path: CLIENT },
      to: { path: "^server/", pathNot: "^server/(domain|api)/", dependencyTypes: ["type-only"] },
    },
    {
      name: "domain-imports-only-zod",
      comment: "The domain layer imports zod and the standard library, nothing else.",
      severity: "error",
      from: { path: "^server/domain/", pathNot: TESTS },
      to: { dependencyTypesNot: ["core", "local"], pathNot: "(^|/)node_modules/zod/" },
    },
    {
      name: "production-imports-test-support",
      comment:
        "Production code (server/, app/, instrumentation.ts) never imports tests or test support (testing/: the fake model server, test databases, harnesses).",
      severity: "error",
      from: { path: "^(server/|app/|instrumentation\\.ts$)", pathNot: TESTS },
      to: { path: TESTS },
    },
  ],
  required: [
    {
      name: "server-only-marker",
      comment:
        'Modules that must never reach the browser import "server-only" (Next.js then fails the build).',
      severity: "error",
      // server/env.ts is the exception: prisma.config.ts loads it in the Prisma CLI, where "server-only"
      // throws. It stays in SERVER_ONLY, so browser-reaches-server-only still keeps it off the browser.
      module: {
        path: under(SERVER_ONLY),
        pathNot: `${TESTS}|^server/generated/|\\.d\\.ts$|^server/env\\.ts$`,
      },
      to: { path: "^server-only$|node_modules/server-only/" },
    },
  ],
  options: {
    tsConfig: { fileName: "tsconfig.json" },
    tsPreCompilationDeps: true,
    doNotFollow: { path: "node_modules" },
    exclude: { path: "^\\.next/" },

    enhancedResolveOptions: {
      exportsFields: ["exports"],
      conditionNames: ["import", "require", "node", "default", "types"],
      extensions: [".ts", ".tsx", ".js", ".mjs", ".cjs", ".json"],
    },
    reporterOptions: { text: { highlightFocused: true } },
  },
};

module.exports = config;
