import "server-only";
import { execFileSync, spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { DEFAULT_SANDBOX_IMAGE } from "@/server/sandbox/container-spec";

/**
 * A sandbox image for tests that move images between engines: the sandbox image's Debian base alone
 * (~120 MB, against 765 MB for arbor-sandbox) plus what the provider needs of an image to start a
 * sandbox and run a command in it — tini as /usr/bin/tini (the entrypoint every sandbox gets; Debian's
 * `tini-static`, taken from arbor-sandbox so no package is needed on the machine), bash and coreutils'
 * `timeout` (the base has them), /workspace and the home directory owned by uid 1000, and the same
 * USER, WORKDIR, ENTRYPOINT and CMD. No git, Node.js or Python: a test using it clones nothing.
 * Built once and kept: its hash label (the recipe, the base's ID and tini's bytes) says whether the
 * image present is still this recipe's, so a run on a warm machine builds nothing.
 */
export const SMALL_SANDBOX_IMAGE = "arbor-test-small-sandbox:latest";
const HASH_LABEL = "arbor.test.small-sandbox.hash";

const DOCKERFILE = `ARG BASE
FROM \${BASE}
COPY tini /usr/bin/tini
RUN mkdir -p /workspace /home/arbor && chown 1000:1000 /workspace /home/arbor \\
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
  const dir = mkdtempSync(path.join(tmpdir(), "arbor-small-image-"));
  const holder = `arbor-small-image-${process.pid}`;
  try {
    docker("create", "--name", holder, DEFAULT_SANDBOX_IMAGE);
    try {
      docker("cp", `${holder}:/usr/bin/tini-static`, path.join(dir, "tini"));
    } finally {
      docker("rm", "-f", holder);
    }
    const hash = createHash("sha256")
      .update(DOCKERFILE)
      .update(docker("image", "inspect", "--format", "{{.Id}}", base))
      .update(readFileSync(path.join(dir, "tini")))
      .digest("hex")
      .slice(0, 16);
    const present = spawnSync(
      "docker",
      ["image", "inspect", "--format", `{{index .Config.Labels "${HASH_LABEL}"}}`, SMALL_SANDBOX_IMAGE],
      { encoding: "utf8" },
    );
    if (present.status !== 0 || present.stdout.trim() !== hash) {
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
    }
    return docker("image", "inspect", "--format", "{{.Id}}", SMALL_SANDBOX_IMAGE);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
