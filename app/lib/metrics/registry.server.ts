// The instance's Prometheus metrics (names listed in the README). Sources are read
// when /metrics is scraped: the request and statement histograms are filled as they happen, the
// rest (pools, outbox, streams, caches, jobs) is asked at scrape time.
import { sql } from "drizzle-orm";
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from "prom-client";
import type { Db, PoolStats } from "~/db/client.server";
import { jobStatuses, observeStatements, type JobStatus, type StatementEvent } from "./signals.server";

/** `bytes`: for a cache bounded in bytes, what its kept values count (its own measure of them). */
export type CacheStats = { hits: number; misses: number; size: number; bytes?: number };
/** Undefined while that cache is not in use on this instance (turned off, not created yet). */
export type CacheStatsSource = () => CacheStats | undefined;

export type MetricsSources = {
  database?: {
    db: Db;
    poolStats?: () => PoolStats;
    read?: { db: Db; poolStats?: () => PoolStats };
  };
  liveStreams?: () => number;
};

/** A scrape-time database question gives up after this long (the scraper's own limit is ~10 s). */
const COLLECT_TIMEOUT_MS = 2_000;

const HTTP_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
const STATEMENT_BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 5, 15];

export type RequestObservation = { route: string; data: boolean; method: string; status: number; seconds: number };

export type AppMetrics = {
  registry: Registry;
  observeRequest(observation: RequestObservation): void;
  requestStarted(): () => void;
  /** Adds a cache to `rt_cache_*{cache=name}`; a second registration of a name replaces the first. */
  registerCacheStats(name: string, source: CacheStatsSource): void;
  /** The Prometheus text. */
  text(): Promise<string>;
  contentType: string;
  stop(): void;
};

const METHODS = new Set(["GET", "HEAD", "POST"]);

export function statusClass(status: number): string {
  const hundreds = Math.trunc(status / 100);
  return hundreds >= 1 && hundreds <= 5 ? `${hundreds}xx` : "other";
}

async function withTimeout<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer in ${ms} ms`)), ms);
  });
  try {
    return await Promise.race([work, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

async function rows<T>(db: Db, query: ReturnType<typeof sql>): Promise<T[]> {
  const result = (await withTimeout(db.execute(query) as Promise<unknown>, COLLECT_TIMEOUT_MS)) as { rows: T[] };
  return result.rows;
}

export function createAppMetrics(sources: MetricsSources = {}, options: { defaultMetrics?: boolean } = {}): AppMetrics {
  const registry = new Registry();
  if (options.defaultMetrics !== false) collectDefaultMetrics({ register: registry });
  const registers = [registry];

  const collectErrors = new Counter({
    name: "rt_metrics_collect_errors_total",
    help: "Scrape-time collections that failed or timed out (the series they fill are then missing).",
    labelNames: ["collector"] as const,
    registers,
  });
  const failed = (collector: string) => collectErrors.inc({ collector });

  // HTTP.
  const requests = new Histogram({
    name: "rt_http_request_duration_seconds",
    help: "HTTP requests by React Router route id (data=true: its .data form), method and status class; _count is the request rate.",
    labelNames: ["route", "data", "method", "status_class"] as const,
    buckets: HTTP_BUCKETS,
    registers,
  });
  const inFlight = new Gauge({ name: "rt_http_requests_in_flight", help: "HTTP requests being served (live streams included).", registers });

  // Database.
  const statements = new Histogram({
    name: "rt_db_statement_duration_seconds",
    help: "SQL statements from call to result (waiting for a connection included), by pool and outcome.",
    labelNames: ["pool", "outcome"] as const,
    buckets: STATEMENT_BUCKETS,
    registers,
  });
  const stopStatements = observeStatements((event: StatementEvent) =>
    statements.observe({ pool: event.pool, outcome: event.failed ? "error" : "ok" }, event.seconds),
  );
  const pools = (): Array<[string, () => PoolStats]> => {
    const out: Array<[string, () => PoolStats]> = [];
    if (sources.database?.poolStats) out.push(["primary", sources.database.poolStats]);
    if (sources.database?.read?.poolStats) out.push(["read", sources.database.read.poolStats]);
    return out;
  };
  const poolGauge = (name: string, help: string, pick: (stats: PoolStats) => number) =>
    new Gauge({
      name,
      help,
      labelNames: ["pool"] as const,
      registers,
      collect() {
        this.reset();
        for (const [pool, stats] of pools()) this.set({ pool }, pick(stats()));
      },
    });
  poolGauge("rt_db_pool_connections", "Open connections of the node-postgres pool (PostgreSQL only).", (s) => s.total);
  poolGauge("rt_db_pool_idle_connections", "Idle connections of the pool.", (s) => s.idle);
  poolGauge("rt_db_pool_waiting_clients", "Queries waiting for a connection of the pool.", (s) => s.waiting);
  poolGauge("rt_db_pool_max_connections", "The pool's size (DATABASE_POOL_MAX, DATABASE_READ_POOL_MAX).", (s) => s.max);
  const read = sources.database?.read;
  if (read) {
    new Gauge({
      name: "rt_db_replica_lag_seconds",
      help: "Time since the read replica replayed its last transaction (grows while the primary writes nothing).",
      registers,
      async collect() {
        try {
          const [row] = await rows<{ lag: number | string | null }>(read.db, sql`select extract(epoch from now() - pg_last_xact_replay_timestamp())::float8 as lag`);
          if (row?.lag !== null && row?.lag !== undefined) this.set(Math.max(0, Number(row.lag)));
        } catch {
          failed("replica_lag");
        }
      },
    });
  }

  // Mail outbox: one statement per scrape for both gauges (a scrape collects every metric at
  // once, so the second finds the first one's statement in flight).
  const database = sources.database;
  if (database) {
    type Outbox = { counts: Record<"pending" | "sending", number>; oldest: number };
    let reading: Promise<Outbox | undefined> | undefined;
    const readOutbox = (): Promise<Outbox | undefined> => {
      if (reading) return reading;
      const outbox = rows<{ status: string; n: number | string; age: number | string | null }>(
        database.db,
        sql`select status, count(*)::int as n, extract(epoch from now() - min(created_at))::float8 as age
            from mail_outbox where status in ('pending', 'sending') group by status`,
      ).then(
        (found) => {
          const count = (status: string) => Number(found.find((r) => r.status === status)?.n ?? 0);
          return { counts: { pending: count("pending"), sending: count("sending") }, oldest: Math.max(0, ...found.map((r) => Number(r.age ?? 0))) };
        },
        () => {
          failed("outbox");
          return undefined;
        },
      );
      reading = outbox.finally(() => {
        reading = undefined;
      });
      return reading;
    };
    new Gauge({
      name: "rt_mail_outbox_messages",
      help: "E-mails waiting in the outbox, by status (pending, sending).",
      labelNames: ["status"] as const,
      registers,
      async collect() {
        const outbox = await readOutbox();
        if (outbox) for (const status of ["pending", "sending"] as const) this.set({ status }, outbox.counts[status]);
      },
    });
    new Gauge({
      name: "rt_mail_outbox_oldest_unsent_age_seconds",
      help: "Age of the oldest e-mail not yet sent (pending or sending); 0 when none.",
      registers,
      async collect() {
        const outbox = await readOutbox();
        if (outbox) this.set(outbox.oldest);
      },
    });
  }

  // Live notification streams.
  const liveStreams = sources.liveStreams;
  if (liveStreams) {
    new Gauge({
      name: "rt_live_streams",
      help: "Live notification streams (Server-Sent Events) held by this instance.",
      registers,
      collect() {
        this.set(liveStreams());
      },
    });
  }

  // Caches.
  const caches = new Map<string, CacheStatsSource>();
  const cacheStats = (): Array<[string, CacheStats]> => {
    const out: Array<[string, CacheStats]> = [];
    for (const [cache, source] of caches) {
      const stats = source();
      if (stats) out.push([cache, stats]);
    }
    return out;
  };
  const cacheCounter = (name: string, help: string, pick: (stats: CacheStats) => number) =>
    new Counter({
      name,
      help,
      labelNames: ["cache"] as const,
      registers,
      collect() {
        // The caches count for themselves: their totals are copied at each scrape.
        this.reset();
        for (const [cache, stats] of cacheStats()) this.inc({ cache }, Math.max(0, pick(stats)));
      },
    });
  cacheCounter("rt_cache_hits_total", "Reads answered from an in-memory cache, by cache.", (s) => s.hits);
  cacheCounter("rt_cache_misses_total", "Reads an in-memory cache could not answer, by cache.", (s) => s.misses);
  new Gauge({
    name: "rt_cache_entries",
    help: "Entries held by an in-memory cache, by cache.",
    labelNames: ["cache"] as const,
    registers,
    collect() {
      this.reset();
      for (const [cache, stats] of cacheStats()) this.set({ cache }, stats.size);
    },
  });
  new Gauge({
    name: "rt_cache_bytes",
    help: "Bytes held by an in-memory cache bounded in bytes, as the cache counts them, by cache.",
    labelNames: ["cache"] as const,
    registers,
    collect() {
      this.reset();
      for (const [cache, stats] of cacheStats()) if (stats.bytes !== undefined) this.set({ cache }, stats.bytes);
    },
  });

  // Background jobs.
  const jobGauge = (name: string, help: string, pick: (status: JobStatus) => number | undefined) =>
    new Gauge({
      name,
      help,
      labelNames: ["job"] as const,
      registers,
      collect() {
        this.reset();
        for (const [job, status] of jobStatuses()) {
          const value = pick(status);
          if (value !== undefined) this.set({ job }, value);
        }
      },
    });
  jobGauge("rt_job_last_success_timestamp_seconds", "Unix time of the job's last successful run on this instance; 0 before its first one.", (s) => s.lastSuccessSeconds ?? 0);
  jobGauge("rt_job_interval_seconds", "How often the job runs.", (s) => s.intervalSeconds);
  new Counter({
    name: "rt_job_runs_total",
    help: "Runs of each background job on this instance, by outcome (ok, error).",
    labelNames: ["job", "outcome"] as const,
    registers,
    collect() {
      this.reset();
      for (const [job, status] of jobStatuses()) {
        this.inc({ job, outcome: "ok" }, status.successes);
        this.inc({ job, outcome: "error" }, status.failures);
      }
    },
  });

  return {
    registry,
    contentType: registry.contentType,
    observeRequest({ route, data, method, status, seconds }) {
      requests.observe({ route, data: data ? "true" : "false", method: METHODS.has(method) ? method : "other", status_class: statusClass(status) }, seconds);
    },
    requestStarted() {
      inFlight.inc();
      let done = false;
      return () => {
        if (done) return;
        done = true;
        inFlight.dec();
      };
    },
    registerCacheStats(name, source) {
      caches.set(name, source);
    },
    text: () => registry.metrics(),
    stop() {
      stopStatements();
      registry.clear();
    },
  };
}
