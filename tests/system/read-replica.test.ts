// A real streaming replica (decision 022): a PostgreSQL primary and a replica of it made by
// pg_basebackup, both throwaway (tests/system/support/replica.ts), and the production server with
// DATABASE_URL on the primary and DATABASE_READ_URL on the replica. Replay is paused on the
// replica to make it lag on purpose (pg_wal_replay_pause), which shows where each read went:
// - an anonymous directory search is answered by the replica;
// - a member who saves their profile sees the change at once on their public profile (the
//   read-after-write cookie sends their reads to the primary), while an anonymous visitor sees
//   the old version until replay resumes — and then the new one (no stale page kept in the cache);
// - with the replica down, the pages are served by the primary (a warning in the log, no error).
// Skipped, with the reason, on machines without PostgreSQL's server binaries.
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEFAULT_DEMO_PASSWORD, demoLoginEmail } from "../../scripts/seed-lib";
import { CookieJar, send } from "./support/client";
import { runScript, type SystemDatabase } from "./support/database";
import { replicaSupport, startReplicaPair, type ReplicaPair } from "./support/replica";
import { startServer, type RunningServer } from "./support/server";

const support = replicaSupport();
if (!support.ok) console.warn(`read-replica system test skipped: ${support.reason}`);

const DB = "reseau_replica";
/** A new company name for a member, and its word in the search text (which the app maintains). */
const MARK = "update profiles set company = $1, search_text = search_text || ' ' || $2 where id = $3";
const SEED = 5;

describe.skipIf(!support.ok)(`a streaming replica for the public pages${support.ok ? "" : ` (skipped: ${support.reason})`}`, () => {
  let pair: ReplicaPair;
  let database: SystemDatabase;
  let server: RunningServer;

  const onPrimary = async <T = Record<string, unknown>>(statement: string, params: unknown[] = []) => query<T>(pair.primaryUrl(DB), statement, params);
  const onReplica = async <T = Record<string, unknown>>(statement: string, params: unknown[] = []) => query<T>(pair.replicaUrl(DB), statement, params);

  beforeAll(async () => {
    if (!support.ok) return;
    pair = await startReplicaPair(support);
    await query(pair.primaryUrl("postgres"), `create database ${DB}`);
    const dataDir = mkdtempSync(path.join(os.tmpdir(), "rt-system-"));
    const env = {
      DATA_DIR: dataDir,
      BETTER_AUTH_SECRET: "system-tests-secret-0123456789abcdef0123456789",
      SMTP_URL: "",
      STRIPE_SECRET_KEY: "",
      DATABASE_URL: pair.primaryUrl(DB),
      DATABASE_READ_URL: pair.replicaUrl(DB),
      DATABASE_READ_AFTER_WRITE_MS: "5000",
    };
    database = { driver: "pg", url: pair.primaryUrl(DB), dataDir, env, drop: async () => rmSync(dataDir, { recursive: true, force: true }) };
    runScript(database, ["scripts/seed.ts", "--members", "8", "--seed", String(SEED)]);
    server = await startServer(env, { capture: true });
  });

  afterAll(async () => {
    await server?.stop();
    pair?.stop();
    await database?.drop();
  });

  /** Waits until the replica has replayed everything the primary wrote so far. */
  async function replicaCaughtUp() {
    const [{ lsn }] = await onPrimary<{ lsn: string }>("select pg_current_wal_lsn()::text as lsn");
    for (let i = 0; i < 100; i++) {
      const [{ behind }] = await onReplica<{ behind: boolean }>("select pg_last_wal_replay_lsn() < $1::pg_lsn as behind", [lsn]);
      if (!behind) return;
      await new Promise((r) => setTimeout(r, 50));
    }
    throw new Error("the replica did not catch up");
  }

  async function paused<T>(fn: () => Promise<T>): Promise<T> {
    await replicaCaughtUp();
    await onReplica("select pg_wal_replay_pause()");
    try {
      return await fn();
    } finally {
      await onReplica("select pg_wal_replay_resume()");
    }
  }

  async function eventually(check: () => Promise<boolean>, ms = 5_000) {
    const deadline = Date.now() + ms;
    while (Date.now() < deadline) {
      if (await check()) return true;
      await new Promise((r) => setTimeout(r, 100));
    }
    return false;
  }

  it("an anonymous directory search is answered by the replica", async () => {
    const word = `replique${Date.now()}`;
    const [member] = await onPrimary<{ id: string }>("select id from profiles where profile_status = 'validated' order by created_at limit 1");
    const search = () => send(server.baseUrl, `/annuaire?q=${word}`);
    await paused(async () => {
      // Written on the primary only: the paused replica does not have it yet.
      await onPrimary(MARK, [`Cabinet ${word}`, word, member!.id]);
      const anonymous = await search();
      expect(anonymous.status).toBe(200);
      expect(anonymous.body).not.toContain(`Cabinet ${word}`);
      // The replica's connections are the server's read pool.
      const pool = await onReplica<{ n: number }>("select count(*)::int as n from pg_stat_activity where application_name = 'rt-read' and datname = $1", [DB]);
      expect(pool[0]!.n).toBeGreaterThan(0);
    });
    expect(await eventually(async () => (await search()).body.includes(`Cabinet ${word}`))).toBe(true);
  });

  it("/metrics gives the read pool and the replica's lag (decision 043)", async () => {
    const metric = async (series: string) => {
      const line = (await send(server.baseUrl, "/metrics")).body.split("\n").find((l) => l.startsWith(`${series} `));
      return line === undefined ? undefined : Number(line.slice(series.length + 1));
    };
    expect(await metric('rt_db_pool_max_connections{pool="read"}')).toBe(4);
    expect(await metric('rt_db_pool_connections{pool="read"}')).toBeGreaterThan(0);
    await paused(async () => {
      // Replay paused: the time since the last replayed commit only grows.
      await new Promise((r) => setTimeout(r, 1_500));
      expect(await metric("rt_db_replica_lag_seconds")).toBeGreaterThanOrEqual(1);
    });
  });

  it("a member who saves their profile sees it at once on their public profile; a visitor once replay resumes", async () => {
    const signIn = await send(server.baseUrl, "/auth", {
      form: { intent: "sign-in", email: demoLoginEmail("premium", SEED), password: DEFAULT_DEMO_PASSWORD },
      headers: { origin: server.baseUrl },
    });
    expect(signIn.status, signIn.body.slice(0, 300)).toBe(302);
    const jar = new CookieJar().store(signIn);
    const [profile] = await onPrimary<{
      id: string;
      location_department: string;
      specialization_sectors: string[];
      detailed_presentation: string | null;
      internal_presentation: string | null;
      full_address: string | null;
    }>(
      `select p.id, p.location_department, p.specialization_sectors, p.detailed_presentation, p.internal_presentation, p.full_address
       from profiles p join "user" u on u.id = p.user_id where u.email = $1`,
      [demoLoginEmail("premium", SEED)],
    );
    const canonical = await send(server.baseUrl, `/consultant/x-${profile!.id}`);
    expect(canonical.status).toBe(301);
    const page = canonical.location!;
    const city = `Ville-${Date.now()}`;
    const form = new URLSearchParams({ intent: "profile", locationDepartment: profile!.location_department, locationCity: city });
    for (const code of profile!.specialization_sectors) form.append("specializationSectors", code);
    if (profile!.detailed_presentation) form.set("detailedPresentation", profile!.detailed_presentation);
    if (profile!.internal_presentation) form.set("internalPresentation", profile!.internal_presentation);
    if (profile!.full_address) form.set("fullAddress", profile!.full_address);

    await paused(async () => {
      const save = await send(server.baseUrl, "/dashboard/profil", {
        body: form.toString(),
        headers: { origin: server.baseUrl, cookie: jar.header(), "content-type": "application/x-www-form-urlencoded" },
      });
      expect(save.status, save.body.slice(0, 300)).toBe(302);
      // The save's response: this browser reads the primary for the next 5 s.
      expect(save.setCookies.find((c) => c.startsWith("rt_fresh="))).toMatch(/Max-Age=5; Path=\/; HttpOnly; SameSite=Lax/);
      jar.store(save);
      const own = await send(server.baseUrl, page, { headers: { cookie: jar.header() } });
      expect(own.status).toBe(200);
      expect(own.body).toContain(city);
      // The replica is behind: a visitor, and the same member from another browser, see the old page.
      const visitor = await send(server.baseUrl, page);
      expect(visitor.status).toBe(200);
      expect(visitor.body).not.toContain(city);
      const otherBrowser = await send(server.baseUrl, page, { headers: { cookie: `rt.session_token=${jar.get("rt.session_token")}` } });
      expect(otherBrowser.body).not.toContain(city);
    });
    // Replay resumed: everyone sees the change (the stale render was not kept by the page cache).
    expect(await eventually(async () => (await send(server.baseUrl, page)).body.includes(city))).toBe(true);
    const again = await send(server.baseUrl, page);
    expect(again.body).toContain(city);
  });

  it("with the replica down, the public pages are served by the primary, with a warning in the log", async () => {
    pair.stopReplica();
    const word = `panne${Date.now()}`;
    const [member] = await onPrimary<{ id: string }>("select id from profiles where profile_status = 'validated' order by created_at desc limit 1");
    await onPrimary(MARK, [`Cabinet ${word}`, word, member!.id]);
    const started = Date.now();
    const search = await send(server.baseUrl, `/annuaire?q=${word}`);
    expect(search.status).toBe(200);
    expect(search.body).toContain(`Cabinet ${word}`);
    expect(Date.now() - started).toBeLessThan(3_000);
    expect(server.output()).toContain("read replica failed: reading from the primary");
  });
});

async function query<T = Record<string, unknown>>(url: string, statement: string, params: unknown[] = []): Promise<T[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query(statement, params)).rows as T[];
  } finally {
    await client.end();
  }
}
