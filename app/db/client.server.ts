// One schema, two drivers: embedded PGlite by default, node-postgres when DATABASE_URL is set.
// The instance lives on globalThis because `npm run dev` evaluates this module again when it or
// an import of it changes, and the open database must outlive that (PGlite's directory admits
// one opener); production loads it once.
import { createHash } from "node:crypto";
import { mkdirSync } from "node:fs";
import path from "node:path";
import type { PGlite } from "@electric-sql/pglite";
import type { PgDatabase, PgQueryResultHKT } from "drizzle-orm/pg-core";
import type { Pool } from "pg";
import { listenPg, listenPglite, type Listen } from "./listen.server";
import * as schema from "./schema";
import { statementObservers, type StatementEvent } from "~/lib/metrics/signals.server";
import { queryCounter } from "~/lib/request-scope.server";

export type Db = PgDatabase<PgQueryResultHKT, typeof schema>;

/** A node-postgres pool's connections, for /metrics (app/lib/metrics). */
export type PoolStats = { total: number; idle: number; waiting: number; max: number };

type Holder = {
  db: Db;
  /** node-postgres only: its pool's connections now. */
  poolStats?: () => PoolStats;
  close: () => Promise<void>;
  driver: "pglite" | "pg";
  /** LISTEN/NOTIFY on this database (absent on test holders installed with setDatabase). */
  listen?: Listen;
  /**
   * A streaming replica of this database (DATABASE_READ_URL), for the public pages' reads only:
   * reach it through app/db/read-replica.server.ts, never directly.
   */
  read?: { db: Db; close: () => Promise<void>; poolStats?: () => PoolStats };
};
const g = globalThis as unknown as { __rtDb?: Holder };

export type DbOptions = {
  url?: string;
  dataDir?: string;
  poolMax?: number;
  /** PostgreSQL only: longest statement (server-side `statement_timeout`; client-side bound + 5 s). */
  statementTimeoutMs?: number;
  /** PostgreSQL only: the connections' `application_name` (seen in pg_stat_activity). */
  applicationName?: string;
  /** PostgreSQL only: how long a query waits for a pooled connection (default 2 s). */
  connectionTimeoutMs?: number;
  /** PostgreSQL only: prepare the statements marked with a reusable plan once per connection (default true). */
  preparedStatements?: boolean;
  /** Which pool its statements' timings are reported under (app/lib/metrics; default primary). */
  role?: StatementEvent["pool"];
};

/** The web server's bound on one statement: far above any page's queries, well below a hang. */
export const SERVER_STATEMENT_TIMEOUT_MS = 15_000;
/** How long a request waits for a pooled connection before it fails (503, see availability.server). */
export const POOL_CONNECTION_TIMEOUT_MS = 2_000;

export const MIGRATIONS_DIR = path.resolve(process.env.MIGRATIONS_DIR ?? path.join(process.cwd(), "drizzle"));

/**
 * PostgreSQL text cannot hold U+0000 and refuses it with an error (a 500 for the user). It is
 * never meaningful in text, so it is removed from every bound parameter, on both drivers.
 */
export function stripNul<T>(value: T): T {
  if (typeof value === "string") return (value.includes("\u0000") ? value.replaceAll("\u0000", "") : value) as T;
  if (Array.isArray(value)) return value.map((v: unknown) => stripNul(v)) as T;
  return value;
}

type QueryFn = (...args: unknown[]) => unknown;

function sanitizeArgs(args: unknown[]): unknown[] {
  const out = [...args];
  const [first, second] = out;
  if (first && typeof first === "object" && Array.isArray((first as { values?: unknown }).values)) {
    out[0] = { ...first, values: stripNul((first as { values: unknown[] }).values) };
  }
  if (Array.isArray(second)) out[1] = stripNul(second);
  return out;
}

/** At most this many statement texts get a name per process; any other runs unnamed. */
export const PREPARED_STATEMENTS_MAX = 2000;
const preparedNames = new Map<string, string>();

/**
 * The mark that opts a statement in (`withReusablePlan` in query.server.ts): a
 * comment at the start of its text, also seen in pg_stat_activity.
 */
export const REUSABLE_PLAN_MARK = "/* rt:reusable-plan */";
/** The same mark as a statement name, for queries drizzle built once (its prepared queries). */
export const REUSABLE_PLAN_NAME = "rt:reusable-plan";

/**
 * The name of a statement's text: the same on every connection, derived from the
 * text so that two texts never share one. Undefined once PREPARED_STATEMENTS_MAX texts have one,
 * which bounds what each connection keeps prepared.
 */
export function preparedStatementName(text: string): string | undefined {
  const known = preparedNames.get(text);
  if (known !== undefined || preparedNames.size >= PREPARED_STATEMENTS_MAX) return known;
  const name = `rt_${createHash("sha256").update(text).digest("base64url").slice(0, 40)}`;
  preparedNames.set(text, name);
  return name;
}

/**
 * A statement marked with REUSABLE_PLAN_MARK and bound parameters is sent with a name: the
 * connection parses it once, and PostgreSQL may keep a generic plan (after five runs, when it
 * costs no more than the custom ones) instead of planning it on every run. Only marked ones: a
 * generic plan does not know the parameters' values, and for a search or a filter it can be
 * hundreds of times slower (the public directory's count was).
 */
export function withPreparedName(args: unknown[], prepare: boolean): unknown[] {
  const [first, second] = args;
  if (!first || typeof first !== "object") return args;
  const config = first as { text?: unknown; name?: unknown; values?: unknown };
  if (typeof config.text !== "string") return args;
  // A query built once by drizzle (`builtOnce` in query.server.ts) carries the mark as its name.
  const marked = config.name === REUSABLE_PLAN_NAME || (config.name === undefined && config.text.startsWith(REUSABLE_PLAN_MARK));
  if (!marked) return args;
  const values = Array.isArray(second) ? second : config.values;
  const name = prepare && Array.isArray(values) && values.length > 0 ? preparedStatementName(config.text) : undefined;
  if (name === config.name) return args;
  const out = [...args];
  out[0] = { ...config, name };
  return out;
}

/**
 * `query` timed for the metrics' observers, when there are any (promise form). The callback form
 * is node-postgres' pool.query calling its client: timed at the pool instead (guardPgPool), in
 * the caller's async context, which the pool's callbacks do not keep (a trace's parent span).
 */
function timedQuery(run: QueryFn, args: unknown[], pool: StatementEvent["pool"]): unknown {
  const observers = statementObservers();
  if (observers.length === 0 || typeof args[args.length - 1] === "function") return run(...args);
  const startMs = Date.now();
  const start = performance.now();
  const report = (failed: boolean) => {
    const event: StatementEvent = { pool, startMs, seconds: (performance.now() - start) / 1000, failed };
    for (const observe of observers) observe(event);
  };
  const result = run(...args);
  if (result && typeof (result as Promise<unknown>).then === "function") {
    (result as Promise<unknown>).then(
      () => report(false),
      () => report(true),
    );
  }
  return result;
}

function wrapQuery(target: { query: unknown }, prepare = false, pool: StatementEvent["pool"] = "primary") {
  const original = (target.query as QueryFn).bind(target);
  target.query = ((...args: unknown[]) => timedQuery(original, withPreparedName(sanitizeArgs(args), prepare), pool)) as never;
}

/** node-postgres: every pooled client strips U+0000 from its parameters and, with `prepare`, names its statements; statements are timed (metrics). */
export function guardPgPool(pool: Pool, prepare = false, role: StatementEvent["pool"] = "primary") {
  pool.on("connect", (client) => wrapQuery(client as unknown as { query: unknown }, prepare, role));
  const query = (pool.query as QueryFn).bind(pool);
  pool.query = ((...args: unknown[]) => timedQuery(query, args, role)) as never;
}

/** PGlite: the client and its transactions strip U+0000 from their parameters. */
export function guardPglite(client: PGlite) {
  wrapQuery(client as unknown as { query: unknown });
  const transaction = client.transaction.bind(client);
  client.transaction = ((fn: (tx: { query: unknown }) => unknown) =>
    transaction((tx) => {
      wrapQuery(tx as unknown as { query: unknown });
      return fn(tx as unknown as { query: unknown }) as Promise<unknown>;
    })) as never;
}

export async function openPglite(dataDir?: string, loadDataDir?: Blob) {
  const { PGlite } = await import("@electric-sql/pglite");
  const { pg_trgm } = await import("@electric-sql/pglite/contrib/pg_trgm");
  const { unaccent } = await import("@electric-sql/pglite/contrib/unaccent");
  if (dataDir) mkdirSync(path.dirname(path.resolve(dataDir)), { recursive: true });
  const client = await PGlite.create({ dataDir, loadDataDir, extensions: { pg_trgm, unaccent } });
  guardPglite(client);
  return client;
}

export async function createDatabase(options: DbOptions): Promise<Holder> {
  if (options.url) {
    const { Pool } = await import("pg");
    const { drizzle } = await import("drizzle-orm/node-postgres");
    const timeout = options.statementTimeoutMs;
    const pool = new Pool({
      connectionString: options.url,
      max: options.poolMax ?? 10,
      // A database that is down must fail requests quickly (503), not queue them for ever.
      connectionTimeoutMillis: options.connectionTimeoutMs ?? POOL_CONNECTION_TIMEOUT_MS,
      keepAlive: true,
      // No JIT compilation: the app's statements are short, and PostgreSQL compiled some of them
      // (a high estimated cost) for 0.7 s when they ran in a few milliseconds without it (the
      // reputation refresh of one member took 0.8 s at 100 000 members).
      options: "-c jit=off",
      ...(options.applicationName ? { application_name: options.applicationName } : {}),
      ...(timeout ? { statement_timeout: timeout, query_timeout: timeout + 5_000 } : {}),
    });
    // An idle client losing its connection (server restart, outage) must not crash the process:
    // the pool drops it and opens a new one on the next query.
    pool.on("error", () => {});
    guardPgPool(pool, options.preparedStatements ?? true, options.role);
    const url = options.url;
    const max = options.poolMax ?? 10;
    return {
      db: drizzle(pool, { schema, logger: queryCounter }) as unknown as Db,
      poolStats: () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount, max }),
      close: () => pool.end(),
      driver: "pg",
      listen: (channel, handlers) => listenPg(url, channel, handlers),
    };
  }
  const client = await openPglite(options.dataDir ? path.join(options.dataDir, "pglite") : undefined);
  const { drizzle } = await import("drizzle-orm/pglite");
  return {
    db: drizzle(client, { schema, logger: queryCounter }) as unknown as Db,
    close: () => client.close(),
    driver: "pglite",
    listen: (channel, handlers) => listenPglite(client, channel, handlers),
  };
}

export async function migrateDatabase(db: Db, driver: Holder["driver"]) {
  if (driver === "pg") {
    const { migrate } = await import("drizzle-orm/node-postgres/migrator");
    // Several instances may start at once: serialise migrations with an advisory lock. `db` must
    // hold a single connection (initDatabase opens one for this), or the unlock may run elsewhere.
    await db.execute("select pg_advisory_lock(726347)");
    try {
      await migrate(db as never, { migrationsFolder: MIGRATIONS_DIR });
    } finally {
      await db.execute("select pg_advisory_unlock(726347)");
    }
  } else {
    const { migrate } = await import("drizzle-orm/pglite/migrator");
    await migrate(db as never, { migrationsFolder: MIGRATIONS_DIR });
  }
}

/** How long a public read waits for a replica connection before it goes to the primary. */
export const READ_POOL_CONNECTION_TIMEOUT_MS = 1_000;

/**
 * The pool of the read replica: the primary's settings (no JIT, the statement timeout, U+0000
 * stripped), its own `application_name`, a small pool and a shorter wait for a connection, since
 * a replica that does not answer sends its reads to the primary (app/db/read-replica.server.ts).
 */
export async function createReadReplica(options: Pick<DbOptions, "url" | "poolMax" | "statementTimeoutMs" | "preparedStatements">) {
  const replica = await createDatabase({
    ...options,
    poolMax: options.poolMax ?? 4,
    applicationName: "rt-read",
    connectionTimeoutMs: READ_POOL_CONNECTION_TIMEOUT_MS,
    role: "read",
  });
  return { db: replica.db, close: replica.close, poolStats: replica.poolStats };
}

/** Opens (and migrates) the process-wide database, and its read replica when given one. */
export async function initDatabase(options: DbOptions & { migrate?: boolean; readUrl?: string; readPoolMax?: number }) {
  if (g.__rtDb) return g.__rtDb;
  const holder = await createDatabase(options);
  if (options.migrate !== false) {
    if (holder.driver === "pg") {
      // Migrations run on a connection of their own: the advisory lock and its release must be
      // on the same session (a pool may hand out another one), and migrations (or waiting for
      // another instance's) may outlast the server's statement timeout.
      const migrator = await createDatabase({ url: options.url, poolMax: 1 });
      try {
        await migrateDatabase(migrator.db, "pg");
      } finally {
        await migrator.close();
      }
    } else {
      await migrateDatabase(holder.db, holder.driver);
    }
  }
  // A replica copies a PostgreSQL server: with the embedded database every read stays on it.
  if (options.readUrl && holder.driver === "pg") {
    holder.read = await createReadReplica({
      url: options.readUrl,
      poolMax: options.readPoolMax,
      statementTimeoutMs: options.statementTimeoutMs,
      preparedStatements: options.preparedStatements,
    });
  }
  g.__rtDb = holder;
  return holder;
}

/** Installs an already-open database as the process-wide one (tests). */
export function setDatabase(holder: Holder | undefined) {
  g.__rtDb = holder;
}

export function getDatabase(): Holder {
  if (!g.__rtDb) throw new Error("Database not initialised: call initDatabase() first");
  return g.__rtDb;
}

export async function closeDatabase() {
  const holder = g.__rtDb;
  g.__rtDb = undefined;
  await holder?.read?.close();
  await holder?.close();
}

/** The process-wide database. A proxy so that modules can import it before it is opened. */
export const db: Db = new Proxy({} as Db, {
  get(_target, prop) {
    const real = getDatabase().db as unknown as Record<PropertyKey, unknown>;
    const value = real[prop];
    return typeof value === "function" ? (value as (...a: unknown[]) => unknown).bind(real) : value;
  },
});

export { schema };
