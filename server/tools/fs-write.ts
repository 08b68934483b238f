import { fsWriteSpec } from "@/server/domain/tools/fs-write";
import { detectSecrets } from "@/server/governance/secrets";
import { relativePath } from "./paths";
import { implementTool } from "./types";
import { countLines, writeChecked } from "./write-file";

export const fsWrite = implementTool(fsWriteSpec, {
  inspect: async (input) => ({ secretFindings: detectSecrets(input.content, { fileName: input.path }) }),
  async execute(input, runtime) {
    const failed = await writeChecked(runtime, input.path, input.content);
    if (failed) return failed;
    const lines = countLines(input.content);
    return {
      ok: true,
      output: `Wrote ${relativePath(input.path)}: ${lines} line${lines === 1 ? "" : "s"}, ${Buffer.byteLength(input.content, "utf8")} bytes.`,
    };
  },
});
