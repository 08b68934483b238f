import { execFileSync } from "node:child_process";
import path from "node:path";

/**
 * The cluster test's second Docker engine: a dockerd in its own network namespace over mutual TLS
 * (deploy/docker-host.sh; its data directory, with the sandbox image copied in on first use, is kept
 * between runs). Its own name and network: the integration test's is arbor-dh-it on 232.
 */
const root = path.resolve(import.meta.dirname, "../..");
export const SECOND_HOST = { ARBOR_DOCKER_HOST_NAME: "arbor-dh-e2e", ARBOR_DOCKER_HOST_NET: "233" };
export const SECOND_HOST_ID = "10.233.0.2:2376";

/** The docker CLI on the second engine, through its local socket (deploy/docker-host.sh's /run/<name>). */
export const onSecondHost = (...args: string[]) =>
  execFileSync("docker", ["-H", `unix:///run/${SECOND_HOST.ARBOR_DOCKER_HOST_NAME}/docker.sock`, ...args], {
    encoding: "utf8",
  });

/** Starts or stops the second engine; resolves to the script's last line (`start`: the host's entry). */
export const secondHostScript = (action: "start" | "stop") =>
  execFileSync("bash", ["deploy/docker-host.sh", action], {
    cwd: root,
    encoding: "utf8",
    stdio: ["ignore", "pipe", "inherit"],
    env: { ...process.env, ...SECOND_HOST },
  })
    .trim()
    .split("\n")
    .at(-1) as string;
