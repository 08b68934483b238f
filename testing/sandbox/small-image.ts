import "server-only";
import { execFileSync, spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { DEFAULT_SANDBOX_IMAGE } from "@/server/sandbox/container-spec";

/**
 * A sandbox image for tests that move images between engines, a few MB against arbor-sandbox's
 * 765 MB: what the provider needs of an image to start a sandbox and run a command in it, and nothing
 * else — tini as /usr/bin/tini (the entrypoint every sandbox gets; Debian's static build, taken from
 * arbor-sandbox), bash, and the coreutils the exec wrapper and the tests call (`timeout`, `sleep`,
 * `cat`…) with the libraries ldd names, gathered from the sandbox image's Debian base onto an empty
 * image; /workspace and the home directory owned by uid 1000; the same USER, WORKDIR, ENTRYPOINT and
 * CMD. No git, Node.js, Python or procps: a test using it clones nothing.
 * Built once and kept: its hash label (this recipe and the base's ID) says whether the image present
 * is still this recipe's, so a run on a warm machine builds nothing.
 */
export const SMALL_SANDBOX_IMAGE = "arbor-test-small-sandbox:latest";
const HASH_LABEL = "arbor.test.small-sandbox.hash";
const TOOLS = "bash sleep timeout cat ls mkdir chown rm mv cp env id";

const DOCKERFILE = `ARG BASE
FROM \${BASE} AS gather
RUN mkdir /out && for tool in ${TOOLS}; do \\
      bin="$(command -v "$tool")"; cp --parents -L "$bin" /out; \\
      for lib in $(ldd "$bin" | grep -o '/[^ ]*'); do cp --parents -L "$lib" /out; done; \\
    done
FROM scratch
COPY --from=gather /out/ /
COPY --from=${DEFAULT_SANDBOX_IMAGE} /usr/bin/tini-static /usr/bin/tini
SHELL ["/usr/bin/bash", "-c"]
RUN mkdir -p /workspace /home/arbor /tmp /etc && chown 1000:1000 /workspace /home/arbor \\
 && printf 'arbor-sandbox\\n' > /etc/arbor-sandbox
USER 1000:1000
WORKDIR /workspace
ENTRYPOINT ["/usr/bin/tini", "--"]
CMD ["sleep", "infinity"]
`;

const docker = (...args: string[]) =>
  execFileSync("docker", args, { encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] }).trim();

function imageExists(name: string): boolean {
  return spawnSync("docker", ["image", "inspect", name], { stdio: "ignore" }).status === 0;
}

/** The base sandbox-image/build.sh used: the upstream image when present, else the debootstrap import. */
function baseImage(): string {
  for (const name of ["debian:bookworm-slim", "arbor-base:bookworm"]) if (imageExists(name)) return name;
  throw new Error("No base image: run sandbox-image/build.sh first (it makes arbor-base:bookworm).");
}

/** Builds SMALL_SANDBOX_IMAGE on the local engine unless the one there is this recipe's; returns its ID. */
export function ensureSmallSandboxImage(): string {
  const base = baseImage();
  const hash = createHash("sha256")
    .update(DOCKERFILE)
    .update(docker("image", "inspect", "--format", "{{.Id}}", base))
    .digest("hex")
    .slice(0, 16);
  const present = spawnSync(
    "docker",
    ["image", "inspect", "--format", `{{index .Config.Labels "${HASH_LABEL}"}}`, SMALL_SANDBOX_IMAGE],
    { encoding: "utf8" },
  );
  if (present.status !== 0 || present.stdout.trim() !== hash) {
    const dir = mkdtempSync(path.join(tmpdir(), "arbor-small-image-"));
    try {
      writeFileSync(path.join(dir, "Dockerfile"), DOCKERFILE);
      // The classic builder, as sandbox-image/build.sh: the CLI here may lack buildx.
      execFileSync(
        "docker",
        [
          "build",
          "-q",
          "--build-arg",
          `BASE=${base}`,
          "--label",
          `${HASH_LABEL}=${hash}`,
          "-t",
          SMALL_SANDBOX_IMAGE,
          dir,
        ],
        { stdio: ["ignore", "pipe", "pipe"], env: { ...process.env, DOCKER_BUILDKIT: "0" } },
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }
  return docker("image", "inspect", "--format", "{{.Id}}", SMALL_SANDBOX_IMAGE);
}
