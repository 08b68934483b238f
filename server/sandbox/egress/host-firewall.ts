import "server-only";
import { execFile } from "node:child_process";
import { promisify } from "node:util";

const run = promisify(execFile);

/**
 * The host's INPUT chain rules for the egress network's bridge: TCP to the proxy's port on the
 * gateway is accepted, everything else from the bridge to the host (Arbor's port, Docker's API, the
 * database) is dropped. `gateway` null: any address (removing rules of a proxy that never started).
 */
export function firewallRules(bridgeName: string, gateway: string | null, port: number): string[][] {
  return [
    [
      "INPUT",
      "-i",
      bridgeName,
      "-p",
      "tcp",
      "-d",
      gateway ?? "0.0.0.0/0",
      "--dport",
      String(port),
      "-j",
      "ACCEPT",
    ],
    ["INPUT", "-i", bridgeName, "-j", "DROP"],
  ];
}

/** Deletes every copy of a rule (iptables -D removes one at a time, and fails once none is left). */
export async function deleteFirewallRule(rule: readonly string[]): Promise<void> {
  while (
    await run("iptables", ["-w", "-D", ...rule]).then(
      () => true,
      () => false,
    )
  );
}

/** Installs exactly one copy of each rule, the accept rule above the drop rule. */
export async function installFirewallRules([accept = [], drop = []]: string[][]): Promise<void> {
  for (const rule of [accept, drop]) await deleteFirewallRule(rule);
  await run("iptables", ["-w", "-I", ...drop]);
  await run("iptables", ["-w", "-I", ...accept]);
}
