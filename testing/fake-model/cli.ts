import { parseArgs } from "node:util";
import { startFakeModelServer } from "./server";

/**
 * `npx tsx testing/fake-model/cli.ts --port 4010 [--scenario name]`: runs the fake model server
 * until it is killed (Playwright's webServer starts it before the app). Prints the base URL to use.
 */
const { values } = parseArgs({
  options: { port: { type: "string", default: "4010" }, scenario: { type: "string", default: "default" } },
});

const port = Number(values.port);
if (!Number.isInteger(port) || port < 0 || port > 65_535) {
  console.error(`Invalid --port "${values.port}"`);
  process.exit(2);
}

const server = await startFakeModelServer({ port, scenario: values.scenario }).catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(2);
});
console.log(`fake model server listening on ${server.url}`);
console.log(`scenario: ${values.scenario}`);

for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.on(signal, () => {
    // Exit whether or not the server closed cleanly: the signal asked for it.
    void server.close().finally(() => process.exit(0));
  });
}
