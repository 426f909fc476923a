// A throwaway PostgreSQL primary with a streaming replica, for tests/system/read-replica.test.ts.
//
// Both clusters live in one temporary directory (initdb, then pg_basebackup -R of it), listen on
// free loopback ports and are stopped and deleted by stop(): nothing of the machine's own
// PostgreSQL clusters or configuration is touched, and a run leaves nothing behind. It needs the
// server binaries (Debian: /usr/lib/postgresql/<version>/bin, or PG_BIN) and, when run as root,
// the `postgres` system user (PostgreSQL refuses to run as root); otherwise `replicaSupport()`
// says what is missing and the test is skipped.
import { spawnSync, type SpawnSyncReturns } from "node:child_process";
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync, appendFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { freePort } from "./server";

const TOOLS = ["initdb", "pg_ctl", "pg_basebackup", "postgres"];

type Support = { ok: true; bin: string; runAs?: { uid: number; gid: number; name: string } } | { ok: false; reason: string };

function postgresUser(): { uid: number; gid: number; name: string } | undefined {
  const r = spawnSync("id", ["-u", "postgres"], { encoding: "utf8" });
  const g = spawnSync("id", ["-g", "postgres"], { encoding: "utf8" });
  if (r.status !== 0 || g.status !== 0) return undefined;
  return { uid: Number(r.stdout.trim()), gid: Number(g.stdout.trim()), name: "postgres" };
}

/** Whether this machine can run a primary and a replica, and with which binaries. */
export function replicaSupport(): Support {
  const candidates: string[] = [];
  if (process.env.PG_BIN) candidates.push(process.env.PG_BIN);
  const root = "/usr/lib/postgresql";
  if (existsSync(root)) {
    const versions = readdirSync(root).filter((v) => /^\d+$/.test(v)).sort((a, b) => Number(b) - Number(a));
    for (const v of versions) candidates.push(path.join(root, v, "bin"));
  }
  const bin = candidates.find((dir) => TOOLS.every((tool) => existsSync(path.join(dir, tool))));
  if (!bin) return { ok: false, reason: `binaires PostgreSQL introuvables (${TOOLS.join(", ")} ; paquet postgresql, ou PG_BIN)` };
  if (process.getuid?.() !== 0) return { ok: true, bin };
  const runAs = postgresUser();
  if (!runAs) return { ok: false, reason: "lancé en root sans utilisateur système « postgres » (PostgreSQL refuse de tourner en root)" };
  if (spawnSync("runuser", ["--help"]).status !== 0) return { ok: false, reason: "runuser introuvable (nécessaire pour lancer PostgreSQL en tant que postgres)" };
  return { ok: true, bin, runAs };
}

export type ReplicaPair = {
  /** postgres:// URL of a database on the primary / on the replica. */
  primaryUrl: (database: string) => string;
  replicaUrl: (database: string) => string;
  /** Stops the replica at once (an outage). */
  stopReplica: () => void;
  /** Stops both clusters and deletes their directory. */
  stop: () => void;
};

export async function startReplicaPair(support: Extract<Support, { ok: true }>): Promise<ReplicaPair> {
  const dir = mkdtempSync(path.join(os.tmpdir(), "rt-replica-"));
  if (support.runAs) chownSync(dir, support.runAs.uid, support.runAs.gid);
  const primaryDir = path.join(dir, "primary");
  const replicaDir = path.join(dir, "replica");
  const [primaryPort, replicaPort] = [await freePort(), await freePort()];

  const run = (tool: string, args: string[], timeout = 60_000): SpawnSyncReturns<string> => {
    const command = path.join(support.bin, tool);
    const r = support.runAs
      ? spawnSync("runuser", ["-u", support.runAs.name, "--", command, ...args], { encoding: "utf8", timeout, cwd: dir })
      : spawnSync(command, args, { encoding: "utf8", timeout, cwd: dir });
    if (r.status !== 0) throw new Error(`${tool} ${args.join(" ")} a échoué :\n${r.stdout}\n${r.stderr}`);
    return r;
  };
  const started: string[] = [];
  const stopCluster = (dataDir: string, mode: "fast" | "immediate") => {
    if (!started.includes(dataDir)) return;
    started.splice(started.indexOf(dataDir), 1);
    try {
      run("pg_ctl", ["-D", dataDir, "-m", mode, "-w", "-t", "20", "stop"], 30_000);
    } catch {
      // Already down.
    }
  };
  const stop = () => {
    stopCluster(replicaDir, "immediate");
    stopCluster(primaryDir, "immediate");
    rmSync(dir, { recursive: true, force: true });
    process.off("exit", stop);
  };
  // Even when the test process ends abruptly, its clusters must not keep running.
  process.on("exit", stop);

  try {
    run("initdb", ["-D", primaryDir, "-U", "postgres", "-A", "trust", "-E", "UTF8", "--locale=C.UTF-8", "--no-sync"]);
    // Later lines win: the settings of this test on top of initdb's defaults. initdb's pg_hba
    // already trusts replication connections from 127.0.0.1.
    appendFileSync(
      path.join(primaryDir, "postgresql.conf"),
      [
        "",
        `port = ${primaryPort}`,
        "listen_addresses = '127.0.0.1'",
        `unix_socket_directories = '${dir}'`,
        "wal_level = replica",
        "max_wal_senders = 4",
        "fsync = off",
        "shared_buffers = 32MB",
        "max_connections = 40",
        "",
      ].join("\n"),
    );
    run("pg_ctl", ["-D", primaryDir, "-l", path.join(dir, "primary.log"), "-w", "-t", "30", "start"]);
    started.push(primaryDir);
    run("pg_basebackup", ["-h", "127.0.0.1", "-p", String(primaryPort), "-U", "postgres", "-D", replicaDir, "-R", "-X", "stream", "-c", "fast", "--no-sync"]);
    appendFileSync(path.join(replicaDir, "postgresql.conf"), `\nport = ${replicaPort}\nhot_standby = on\n`);
    run("pg_ctl", ["-D", replicaDir, "-l", path.join(dir, "replica.log"), "-w", "-t", "30", "start"]);
    started.push(replicaDir);
  } catch (error) {
    stop();
    throw error;
  }
  const url = (port: number, database: string) => `postgres://postgres@127.0.0.1:${port}/${database}`;
  const client = new pg.Client({ connectionString: url(replicaPort, "postgres") });
  await client.connect();
  try {
    const { rows } = await client.query<{ recovery: boolean }>("select pg_is_in_recovery() as recovery");
    if (!rows[0]?.recovery) throw new Error("le second cluster n'est pas une réplique");
  } finally {
    await client.end();
  }
  return {
    primaryUrl: (database) => url(primaryPort, database),
    replicaUrl: (database) => url(replicaPort, database),
    stopReplica: () => stopCluster(replicaDir, "immediate"),
    stop,
  };
}
