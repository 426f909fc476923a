// The read replica's routing rule (decision 022), on PGlite and on PostgreSQL. A second Drizzle
// instance over the same database stands in for the replica; each instance counts its statements,
// so the tests see which one served each read. tests/system/read-replica.test.ts runs the same
// rule against a real streaming replica.
import { sql } from "drizzle-orm";
import type { Logger } from "drizzle-orm/logger";
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { createReadReplica, getDatabase, setDatabase, type Db } from "~/db/client.server";
import { publicReadTarget, resetReplicaState, withReadReplica } from "~/db/read-replica.server";
import * as schema from "~/db/schema";
import { getPublicProfile } from "~/features/profiles/public-profile.server";
import { getEnv } from "~/lib/env.server";
import { logger } from "~/lib/logger.server";
import { readAfterWriteCookie } from "~/lib/read-after-write";
import { currentRequestScope, withRequestScope } from "~/lib/request-scope.server";
import { loader as annuaireLoader } from "~/routes/public/annuaire";
import { loader as consultantLoader } from "~/routes/public/consultant";
import { createMember, seedFactories } from "../support/factories";
import { testDriver, useTestDatabase } from "../support/db";
import { markAllNotificationsRead } from "~/features/notifications/notifications.server";
import { setRatingsConsent } from "~/features/trust/ratings.server";
import { touchesPublicContent } from "~/lib/cache.server";

const t = useTestDatabase();

type Counted = { db: Db; statements: number; close: () => Promise<void> };

function counter(target: { statements: number }): Logger {
  return { logQuery: () => void (target.statements += 1) };
}

/** A second Drizzle instance over the test database, counting its statements: the "replica". */
async function standInReplica(): Promise<Counted> {
  const counted = { statements: 0 } as Counted;
  if (t.driver === "pg") {
    const { Pool } = await import("pg");
    const { drizzle } = await import("drizzle-orm/node-postgres");
    const pool = new Pool({ connectionString: t.url, max: 2, application_name: "rt-read-test" });
    counted.db = drizzle(pool, { schema, logger: counter(counted) }) as unknown as Db;
    counted.close = () => pool.end();
  } else {
    const { drizzle } = await import("drizzle-orm/pglite");
    const client = (t.db as unknown as { $client: never }).$client;
    counted.db = drizzle(client, { schema, logger: counter(counted) }) as unknown as Db;
    counted.close = async () => {};
  }
  return counted;
}

/** A replica that fails every statement (unreachable). */
function brokenReplica(): Db {
  const fail = () => Promise.reject(Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:5433"), { code: "ECONNREFUSED" }));
  return new Proxy({} as Db, {
    get: (_target, prop) => (prop === "then" ? undefined : prop === "execute" ? fail : () => ({ from: () => ({ where: () => ({ limit: fail }) }) })),
  });
}

let replica: Counted;
let primaryStatements = 0;
let slug: string;
let profileId: string;

beforeAll(async () => {
  seedFactories(22);
  const member = await createMember(t.db!, {
    profile: { profileStatus: "validated", onboardingStatus: "validated", lastName: "Réplique", company: "Cabinet Réplique", locationDepartment: "33" },
  });
  profileId = member.profile.id;
  slug = (await getPublicProfile(profileId))!.slug;
  replica = await standInReplica();
});

afterAll(async () => {
  await replica?.close();
});

/** Installs the test database as the primary, with `read` as its replica (or none). */
function install(read: Db | undefined) {
  const holder = getDatabase();
  setDatabase({ db: holder.db, driver: holder.driver, close: holder.close, ...(read ? { read: { db: read, close: async () => {} } } : {}) });
}

beforeEach(() => {
  resetReplicaState();
  replica.statements = 0;
  primaryStatements = 0;
});

type AnnuaireArgs = Parameters<typeof annuaireLoader>[0];
type ConsultantArgs = Parameters<typeof consultantLoader>[0];
const request = (path: string, init: RequestInit = {}) => new Request(`http://localhost${path}`, init);

/** Runs `fn` as the server runs a request (its scope counts the primary's statements). */
async function asRequest<T>(method: string, fn: () => Promise<T>): Promise<T> {
  return withRequestScope(method, async () => {
    const out = await fn();
    primaryStatements = currentRequestScope()!.queries;
    return out;
  });
}

const annuaire = (req: Request) => asRequest(req.method, () => annuaireLoader({ request: req, params: {}, context: { requestId: "t" } } as unknown as AnnuaireArgs));
const consultant = (req: Request) =>
  asRequest(req.method, () => consultantLoader({ request: req, params: { slug }, context: { requestId: "t" } } as unknown as ConsultantArgs));

describe("publicReadTarget (the rule)", () => {
  const now = 1_800_000_000_000;
  const options = { replica: true, now, afterWriteMs: 5_000 };
  const fresh = readAfterWriteCookie(now - 1_000, 5_000, false).split(";")[0]!;
  const stale = readAfterWriteCookie(now - 6_000, 5_000, false).split(";")[0]!;
  it.each([
    ["GET, no cookie", "replica", "GET", {}, options],
    ["HEAD", "replica", "HEAD", {}, options],
    ["GET with a session cookie only", "replica", "GET", { cookie: "rt.session_token=abc" }, options],
    ["GET after a write 1 s ago", "primary", "GET", { cookie: `rt.session_token=abc; ${fresh}` }, options],
    ["GET after a write 6 s ago (window of 5 s)", "replica", "GET", { cookie: stale }, options],
    ["POST (an action)", "primary", "POST", {}, options],
    ["no replica configured", "primary", "GET", {}, { ...options, replica: false }],
  ] as const)("%s → %s", (_label, expected, method, headers, opts) => {
    expect(publicReadTarget(new Request("http://localhost/annuaire", { method, headers }), opts)).toBe(expected);
  });
});

describe("without DATABASE_READ_URL", () => {
  it("every read goes to the primary, as before", async () => {
    install(undefined);
    const out = await annuaire(request("/annuaire?departement=33"));
    expect(out).toMatchObject({ failed: false, total: 1 });
    expect(replica.statements).toBe(0);
    expect(primaryStatements).toBeGreaterThan(0);
  });
});

describe("with a read replica", () => {
  beforeAll(() => install(replica.db));
  afterAll(() => install(undefined));

  it("/annuaire: an anonymous search is served by the replica alone", async () => {
    const out = await annuaire(request("/annuaire?departement=33"));
    expect(out).toMatchObject({ failed: false, total: 1 });
    expect(replica.statements).toBeGreaterThanOrEqual(2); // the count and the page
    expect(primaryStatements).toBe(0);
  });

  it("/consultant/{slug}: the public profile from the replica; nothing else reads there", async () => {
    const out = await consultant(request(`/consultant/${slug}`));
    expect(out.profile.id).toBe(profileId);
    expect(replica.statements).toBeGreaterThanOrEqual(3); // profile, closings count, reputation
    expect(primaryStatements).toBe(0);
  });

  it("a browser that wrote public content a moment ago reads the primary, then the replica again", async () => {
    const fresh = readAfterWriteCookie(Date.now(), getEnv().DATABASE_READ_AFTER_WRITE_MS, false).split(";")[0]!;
    await consultant(request(`/consultant/${slug}`, { headers: { cookie: fresh } }));
    expect(replica.statements).toBe(0);
    expect(primaryStatements).toBeGreaterThan(0);
    const ended = readAfterWriteCookie(Date.now() - getEnv().DATABASE_READ_AFTER_WRITE_MS - 1, getEnv().DATABASE_READ_AFTER_WRITE_MS, false).split(";")[0]!;
    await consultant(request(`/consultant/${slug}`, { headers: { cookie: ended } }));
    expect(replica.statements).toBeGreaterThan(0);
  });

  it("a request that is not a read (an action, a transaction) uses the primary", async () => {
    const handle = await asRequest("POST", () => withReadReplica(request("/consultant/x", { method: "POST" }), async (h) => h));
    expect(handle).toBe(getDatabase().db);
    expect(replica.statements).toBe(0);
  });

  it("the signed-in pages never read the replica", async () => {
    // Every other feature reads `db`, the primary; the replica is reached through withReadReplica only.
    const { readdirSync, readFileSync, statSync } = await import("node:fs");
    const path = await import("node:path");
    const users: string[] = [];
    const walk = (dir: string) => {
      for (const name of readdirSync(dir)) {
        const file = path.join(dir, name);
        if (statSync(file).isDirectory()) walk(file);
        else if (/\.tsx?$/.test(name) && !name.endsWith(".test.ts") && readFileSync(file, "utf8").includes("withReadReplica(")) users.push(file);
      }
    };
    walk("app");
    expect(users.sort()).toEqual(["app/db/read-replica.server.ts", "app/routes/public/annuaire.tsx", "app/routes/public/consultant.tsx"]);
  });
});

describe("a failing replica", () => {
  afterAll(() => install(undefined));

  it("sends the read to the primary with a warning, never an error page, and is left alone for a while", async () => {
    install(brokenReplica());
    const warn = vi.spyOn(logger, "warn").mockImplementation(() => undefined as never);
    try {
      const out = await annuaire(request("/annuaire?departement=33"));
      expect(out).toMatchObject({ failed: false, total: 1 });
      expect(primaryStatements).toBeGreaterThan(0);
      expect(warn).toHaveBeenCalledWith(expect.objectContaining({ err: expect.any(Error) }), "read replica failed: reading from the primary");
      const profile = await consultant(request(`/consultant/${slug}`));
      expect(profile.profile.id).toBe(profileId);
      // The circuit is open: the second read did not try the replica (one warning only).
      expect(warn).toHaveBeenCalledTimes(1);
    } finally {
      warn.mockRestore();
    }
  });

  it.runIf(testDriver === "pg")("an unreachable replica server: the same, within the 1 s connection wait", async () => {
    const unreachable = await createReadReplica({ url: "postgres://postgres@127.0.0.1:1/none" });
    install(unreachable.db);
    const warn = vi.spyOn(logger, "warn").mockImplementation(() => undefined as never);
    try {
      const started = Date.now();
      const out = await annuaire(request("/annuaire?departement=33"));
      expect(out).toMatchObject({ failed: false, total: 1 });
      expect(Date.now() - started).toBeLessThan(1_500);
      expect(warn).toHaveBeenCalledTimes(1);
    } finally {
      warn.mockRestore();
      await unreachable.close();
    }
  });
});

describe.runIf(testDriver === "pg")("the replica's pool (PostgreSQL)", () => {
  it("has the primary's settings and its own application_name", async () => {
    const read = await createReadReplica({ url: t.url!, statementTimeoutMs: 15_000 });
    try {
      const { rows } = (await read.db.execute(
        sql`select current_setting('application_name') as app, current_setting('jit') as jit, current_setting('statement_timeout') as timeout`,
      )) as unknown as { rows: { app: string; jit: string; timeout: string }[] };
      expect(rows[0]).toEqual({ app: "rt-read", jit: "off", timeout: "15s" });
    } finally {
      await read.close();
    }
  });
});

describe("what sets the read-after-write cookie", () => {
  it("a service writing what the public pages show marks the request; other writes do not", async () => {
    const marked = await withRequestScope("POST", async () => {
      await markAllNotificationsRead({ user: { id: "nobody" } } as Parameters<typeof markAllNotificationsRead>[0]);
      const before = touchesPublicContent(currentRequestScope()!.invalidated);
      await setRatingsConsent(profileId, true);
      return { before, after: touchesPublicContent(currentRequestScope()!.invalidated) };
    });
    expect(marked).toEqual({ before: false, after: true });
  });
});
