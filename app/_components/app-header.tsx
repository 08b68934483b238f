"use client";

import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { signOut, useSession } from "next-auth/react";
import { useTRPC } from "../_trpc/client";
import { InboxBadge } from "./inbox/inbox-badge";
import { ThemeSwitch } from "./theme-switch";

/** Top bar: where you are, which model answers (offline is said plainly), whether Docker answers. */
export function AppHeader() {
  const trpc = useTRPC();
  const { data: auth } = useSession();
  const status = useQuery({ ...trpc.system.status.queryOptions(), refetchInterval: 30_000 });
  return (
    <header className="app-header">
      <nav aria-label="Main" className="header-nav">
        <Link href="/projects" className="brand" prefetch={false}>
          Arbor
        </Link>
        <Link href="/projects" prefetch={false}>
          Projects
        </Link>
        <Link href="/dashboard" data-testid="nav-dashboard" prefetch={false}>
          Dashboard
        </Link>
        {auth?.user && <InboxBadge />}
      </nav>
      <div className="header-status">
        <ThemeSwitch />
        {status.data && (
          <span
            className={status.data.model.offline ? "pill warn" : "pill"}
            data-testid="model-label"
            title={
              status.data.model.offline
                ? "No model provider is configured; the built-in heuristics answer."
                : undefined
            }
          >
            {status.data.model.offline ? "Offline model" : "Model"}: {status.data.model.label}
          </span>
        )}
        {status.data && !status.data.docker.ok && (
          <span className="pill danger" role="status" data-testid="docker-status">
            Sandbox unavailable: {status.data.docker.message}
          </span>
        )}
        {status.data?.hosts && <DockerHostImages hosts={status.data.hosts} />}
        {status.data?.imageUpkeep && status.data.imageUpkeep.imagesRemoved > 0 && (
          <span className="pill" data-testid="image-upkeep" title={upkeepNote(status.data.imageUpkeep)}>
            Old images removed: {status.data.imageUpkeep.imagesRemoved}
          </span>
        )}
        {auth?.user && (
          <>
            <Link
              href="/account"
              className="muted"
              data-testid="current-user"
              title="Your settings"
              prefetch={false}
            >
              {auth.user.name ?? auth.user.email}
            </Link>
            <button type="button" className="link" onClick={() => signOut({ callbackUrl: "/login" })}>
              Sign out
            </button>
          </>
        )}
      </div>
    </header>
  );
}

interface HostImage {
  id: string;
  healthy: boolean;
  sandboxImageId: string | null;
  current: boolean;
  imagesRemoved?: number;
  lastUpkeepAt?: string | null;
}

/** What the image upkeep did on a host (or the local engine), for its tooltip. */
function upkeepNote(host: Pick<HostImage, "imagesRemoved" | "lastUpkeepAt">): string {
  if (!host.lastUpkeepAt) return "Old images: not looked at yet.";
  const at = new Date(host.lastUpkeepAt).toLocaleTimeString();
  return `Old images removed since start: ${host.imagesRemoved ?? 0} (last looked at ${at}).`;
}

/** With several Docker hosts: each one's sandbox image (short ID) and whether it is the current build. */
function DockerHostImages({ hosts }: { hosts: HostImage[] }) {
  const stale = hosts.filter((host) => host.healthy && !host.current).length;
  return (
    <span
      className={stale > 0 ? "pill warn" : "pill"}
      data-testid="docker-hosts"
      title="A host whose image is not current gets the current one before its next sandbox starts."
    >
      {hosts.map((host) => (
        <span key={host.id} data-testid="docker-host" data-current={host.current} title={upkeepNote(host)}>
          {host.id}:{" "}
          {!host.healthy
            ? "down"
            : host.sandboxImageId === null
              ? "no image yet"
              : `${host.sandboxImageId.replace(/^sha256:/, "").slice(0, 12)} ${host.current ? "current" : "stale"}`}{" "}
        </span>
      ))}
    </span>
  );
}
