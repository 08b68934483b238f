import { main } from "./main";

// The bundle's entry (build.mjs): the published `arbor` runs this with plain node.
process.exitCode = await main(process.argv);
