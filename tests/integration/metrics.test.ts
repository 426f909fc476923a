// The Prometheus metrics' scrape-time sources on a real database (decision 043): the outbox's
// depth and oldest unsent e-mail, the statements' histogram, the jobs' last success, the caches.
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, expect, it } from "vitest";
import { mailOutbox } from "~/db/schema";
import { enqueueMail } from "~/lib/mail/outbox.server";
import { createAppMetrics, type AppMetrics } from "~/lib/metrics/registry.server";
import { startPeriodicJob } from "~/lib/periodic-job.server";
import { useTestDatabase } from "../support/db";

const t = useTestDatabase();
let metrics: AppMetrics;

/** The value of one series of the Prometheus text (the line `name{labels} value`). */
function value(text: string, series: string): number | undefined {
  const line = text.split("\n").find((l) => l.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

beforeAll(() => {
  metrics = createAppMetrics({ database: { db: t.db! }, liveStreams: () => 3 }, { defaultMetrics: false });
});
afterAll(() => metrics.stop());
beforeEach(async () => {
  await t.db!.delete(mailOutbox);
});

const mail = (n: number) => ({ to: `membre${n}@example.fr`, subject: "Sujet", html: "<p>x</p>", text: "x", kind: "test" });

it("counts the unsent e-mails by status and gives the age of the oldest", async () => {
  let text = await metrics.text();
  expect(value(text, 'rt_mail_outbox_messages{status="pending"}')).toBe(0);
  expect(value(text, "rt_mail_outbox_oldest_unsent_age_seconds")).toBe(0);
  await enqueueMail(mail(1));
  await enqueueMail(mail(2));
  const old = await enqueueMail(mail(3));
  await t.db!.execute(sql`update mail_outbox set created_at = now() - interval '10 minutes', status = 'sending' where id = ${old}`);
  // Sent and failed ones are not waiting.
  const sent = await enqueueMail(mail(4));
  await t.db!.execute(sql`update mail_outbox set created_at = now() - interval '3 days', status = 'sent' where id = ${sent}`);
  text = await metrics.text();
  expect(value(text, 'rt_mail_outbox_messages{status="pending"}')).toBe(2);
  expect(value(text, 'rt_mail_outbox_messages{status="sending"}')).toBe(1);
  const age = value(text, "rt_mail_outbox_oldest_unsent_age_seconds")!;
  expect(age).toBeGreaterThanOrEqual(600);
  expect(age).toBeLessThan(3 * 86_400);
});

it("times the statements of the app's database", async () => {
  const before = value(await metrics.text(), 'rt_db_statement_duration_seconds_count{pool="primary",outcome="ok"}') ?? 0;
  await t.db!.execute(sql`select 1`);
  await t.db!.execute(sql`select 2`);
  await expect(t.db!.execute(sql`select * from no_such_table`)).rejects.toThrow();
  const text = await metrics.text();
  // The scrape's own outbox statement counts too.
  expect(value(text, 'rt_db_statement_duration_seconds_count{pool="primary",outcome="ok"}')).toBeGreaterThanOrEqual(before + 2);
  expect(value(text, 'rt_db_statement_duration_seconds_count{pool="primary",outcome="error"}')).toBeGreaterThanOrEqual(1);
  expect(text).toContain('rt_db_statement_duration_seconds_bucket{le="0.001",pool="primary",outcome="ok"}');
});

it("gives each background job's last success, and counts its failures", async () => {
  let fail = false;
  let runs = 0;
  const job = startPeriodicJob({
    name: "metrics test job",
    intervalMs: 20,
    initialDelayMs: 0,
    run: async () => {
      runs += 1;
      if (fail) throw new Error("boom");
      return 0;
    },
  });
  try {
    const startedAt = Date.now() / 1000;
    expect(value(await metrics.text(), 'rt_job_interval_seconds{job="metrics test job"}')).toBe(0.02);
    await expect.poll(() => runs, { timeout: 5_000 }).toBeGreaterThan(0);
    await expect.poll(async () => value(await metrics.text(), 'rt_job_last_success_timestamp_seconds{job="metrics test job"}') ?? 0).toBeGreaterThanOrEqual(Math.floor(startedAt));
    fail = true;
    await expect.poll(async () => value(await metrics.text(), 'rt_job_runs_total{job="metrics test job",outcome="error"}') ?? 0, { timeout: 5_000 }).toBeGreaterThan(0);
  } finally {
    job.stop();
  }
});

it("copies each registered cache's counts, and the live streams", async () => {
  let hits = 5;
  metrics.registerCacheStats("test", () => ({ hits, misses: 2, size: 7, bytes: 4096 }));
  metrics.registerCacheStats("unbounded", () => ({ hits: 0, misses: 0, size: 1 }));
  metrics.registerCacheStats("absent", () => undefined);
  let text = await metrics.text();
  expect(value(text, 'rt_cache_hits_total{cache="test"}')).toBe(5);
  expect(value(text, 'rt_cache_misses_total{cache="test"}')).toBe(2);
  expect(value(text, 'rt_cache_entries{cache="test"}')).toBe(7);
  expect(value(text, 'rt_cache_bytes{cache="test"}')).toBe(4096);
  expect(text).not.toContain('rt_cache_bytes{cache="unbounded"}');
  expect(text).not.toContain('cache="absent"');
  hits = 9;
  text = await metrics.text();
  expect(value(text, 'rt_cache_hits_total{cache="test"}')).toBe(9);
  expect(value(text, "rt_live_streams")).toBe(3);
});

it("labels the requests' histogram by route id, .data flag, method and status class", async () => {
  metrics.observeRequest({ route: "routes/public/annuaire", data: true, method: "GET", status: 200, seconds: 0.01 });
  metrics.observeRequest({ route: "routes/public/annuaire", data: false, method: "PROPFIND", status: 503, seconds: 0.01 });
  const text = await metrics.text();
  expect(value(text, 'rt_http_request_duration_seconds_count{route="routes/public/annuaire",data="true",method="GET",status_class="2xx"}')).toBe(1);
  expect(value(text, 'rt_http_request_duration_seconds_count{route="routes/public/annuaire",data="false",method="other",status_class="5xx"}')).toBe(1);
});
