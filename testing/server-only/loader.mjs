/**
 * Lets a bench (run by tsx outside Next.js) import server modules that `import "server-only"`: the
 * marker package throws unless it is resolved under React's "react-server" condition, which only
 * Next.js's server bundles set. This resolve hook resolves that one specifier under that condition (the
 * package's own empty module), like vitest's alias does for tests. Usage: tsx --import ./testing/server-only/loader.mjs …
 */
import { register } from "node:module";

register(
  `data:text/javascript,${encodeURIComponent(`
    export async function resolve(specifier, context, next) {
      if (specifier === "server-only")
        return next(specifier, { ...context, conditions: [...context.conditions, "react-server"] });
      return next(specifier, context);
    }
  `)}`,
  import.meta.url,
);
