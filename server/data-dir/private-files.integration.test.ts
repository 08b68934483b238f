import { execFileSync } from "node:child_process";
import { chmodSync, mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { PRIVATE_UMASK, secureDataDir } from "./private-files";

const mode = (file: string) => statSync(file).mode & 0o777;

let scratch: string;
let previousUmask: number;
beforeEach(() => {
  scratch = mkdtempSync(path.join(tmpdir(), "arbor-modes-"));
  // The umask a default shell gives: what left arbor.db 0644 before.
  previousUmask = process.umask(0o022);
});
afterEach(() => {
  process.umask(previousUmask);
  rmSync(scratch, { recursive: true, force: true });
});

describe("the data directory is the server user's alone", () => {
  it("fixes an older data directory: SQLite with its WAL and SHM, repositories, secrets", () => {
    const dataDir = path.join(scratch, "data");
    mkdirSync(path.join(dataDir, "repos"), { recursive: true });
    chmodSync(dataDir, 0o755);
    const dbFile = path.join(dataDir, "arbor.db");
    const open = new Database(dbFile);
    open.pragma("journal_mode = WAL");
    open.exec("CREATE TABLE t (x TEXT); INSERT INTO t VALUES ('password hash')");
    execFileSync("git", ["init", "-q", "--bare", path.join(dataDir, "repos", "p.git")]);
    writeFileSync(path.join(dataDir, "auth-secret"), "s", { mode: 0o644 });
    expect(mode(dbFile)).toBe(0o644);
    expect(mode(`${dbFile}-wal`)).toBe(0o644);
    expect(mode(`${dbFile}-shm`)).toBe(0o644);

    const { fixed } = secureDataDir({ dataDir, databaseUrl: `file:${dbFile}` });
    open.close();

    expect(fixed).toContain(dbFile);
    expect(mode(dataDir)).toBe(0o700);
    expect(mode(path.join(dataDir, "repos"))).toBe(0o700);
    expect(mode(path.join(dataDir, "repos", "p.git", "HEAD"))).toBe(0o600);
    expect(mode(path.join(dataDir, "repos", "p.git", "objects"))).toBe(0o700);
    expect(mode(path.join(dataDir, "auth-secret"))).toBe(0o600);
    for (const file of [dbFile, `${dbFile}-wal`, `${dbFile}-shm`]) {
      expect(statSync(file, { throwIfNoEntry: false }) ? mode(file) & 0o077 : 0).toBe(0);
    }
  });

  it("creates everything afterwards 0600 / 0700: a new database, its WAL and SHM, a new repository", () => {
    const dataDir = path.join(scratch, "fresh");
    secureDataDir({ dataDir, databaseUrl: `file:${path.join(dataDir, "arbor.db")}` });
    expect(process.umask()).toBe(PRIVATE_UMASK);
    const dbFile = path.join(dataDir, "arbor.db");
    const db = new Database(dbFile);
    db.pragma("journal_mode = WAL");
    db.exec("CREATE TABLE t (x TEXT); INSERT INTO t VALUES ('event')");
    expect([mode(dataDir), mode(dbFile), mode(`${dbFile}-wal`), mode(`${dbFile}-shm`)]).toEqual([
      0o700, 0o600, 0o600, 0o600,
    ]);
    db.close();
    execFileSync("git", ["init", "-q", "--bare", path.join(dataDir, "repos", "new.git")]);
    expect(mode(path.join(dataDir, "repos"))).toBe(0o700);
    expect(mode(path.join(dataDir, "repos", "new.git", "config"))).toBe(0o600);
  });

  it("leaves symlinks and owner bits alone (a git hook stays executable)", () => {
    const dataDir = path.join(scratch, "links");
    mkdirSync(dataDir, { recursive: true });
    const outside = path.join(scratch, "outside.txt");
    writeFileSync(outside, "x", { mode: 0o644 });
    execFileSync("ln", ["-s", outside, path.join(dataDir, "link")]);
    writeFileSync(path.join(dataDir, "hook"), "#!/bin/sh\n", { mode: 0o755 });
    secureDataDir({ dataDir, databaseUrl: "postgresql://elsewhere" });
    expect(mode(outside)).toBe(0o644);
    expect(mode(path.join(dataDir, "hook"))).toBe(0o700);
  });
});
