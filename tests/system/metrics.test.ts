// Metrics and traces (issue 33 §3, decision 043) on the production server: /metrics labels the
// requests by React Router route id, gives the outbox and the jobs; it answers this machine and
// the bearer token only (TRUST_PROXY on: a forwarded address never counts as this machine); with
// OTEL_EXPORTER_OTLP_ENDPOINT the requests' spans reach the collector with their request id.
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import { afterAll, beforeAll, expect, it } from "vitest";
import { send } from "./support/client";
import { createSystemDatabase, type SystemDatabase } from "./support/database";
import { startServer, type RunningServer } from "./support/server";

const TOKEN = "metrics-token-0123456789abcdef0123456789";

let database: SystemDatabase;
let server: RunningServer | undefined;
let collector: http.Server;
const exported: string[] = [];

/** An IPv4 address of this machine that is not loopback (eth0…), if any. */
const lanAddress = Object.values(os.networkInterfaces())
  .flat()
  .find((i) => i && i.family === "IPv4" && !i.internal)?.address;

function value(text: string, series: string): number | undefined {
  const line = text.split("\n").find((l) => l.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

const local = () => `http://127.0.0.1:${server!.port}`;

beforeAll(async () => {
  // A stand-in OTLP/HTTP collector: keeps what it is sent.
  collector = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      exported.push(`${req.url} ${Buffer.concat(chunks).toString("utf8")}`);
      res.writeHead(200, { "content-type": "application/json" }).end("{}");
    });
  });
  await new Promise<void>((resolve) => collector.listen(0, "127.0.0.1", resolve));
  database = await createSystemDatabase();
  server = await startServer(
    {
      ...database.env,
      TRUST_PROXY: "true",
      METRICS_TOKEN: TOKEN,
      JOBS_START_DELAY_MS: "0",
      OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${(collector.address() as AddressInfo).port}`,
      OTEL_BSP_SCHEDULE_DELAY: "200",
    },
    { capture: true, host: "0.0.0.0", timeoutMs: 150_000 },
  );
});

afterAll(async () => {
  await server?.stop();
  await database?.drop();
  await new Promise((resolve) => collector?.close(resolve));
});

it("labels the requests by route id, and gives the outbox, the pools and the jobs", async () => {
  for (const path of ["/", "/annuaire", "/annuaire?q=paris", "/annuaire.data", "/cgu", "/n-importe-quoi", "/wp-admin/setup.php", "/favicon.svg"]) {
    const r = await send(local(), path);
    expect(r.status, path).toBeLessThan(500);
  }
  const r = await send(local(), "/metrics");
  expect(r.status).toBe(200);
  expect(r.headers["content-type"]).toContain("text/plain");
  const text = r.body;
  const count = (labels: string) => value(text, `rt_http_request_duration_seconds_count{${labels}}`) ?? 0;
  expect(count('route="routes/public/annuaire",data="false",method="GET",status_class="2xx"')).toBe(2);
  expect(count('route="routes/public/annuaire",data="true",method="GET",status_class="2xx"')).toBe(1);
  expect(count('route="routes/public/landing",data="false",method="GET",status_class="2xx"')).toBeGreaterThanOrEqual(1);
  // Unknown paths are one label, never their URL.
  expect(count('route="routes/public/not-found",data="false",method="GET",status_class="4xx"')).toBe(1);
  expect(count('route="static",data="false",method="GET",status_class="4xx"')).toBe(1);
  expect(count('route="static",data="false",method="GET",status_class="2xx"')).toBe(1);
  expect(text).toContain('rt_http_request_duration_seconds_bucket{le="0.1",route="routes/public/cgu",data="false",method="GET",status_class="2xx"}');
  expect(text).not.toMatch(/route="\/|n-importe-quoi|wp-admin/);
  expect(text).toMatch(/^rt_http_requests_in_flight \d+$/m);
  expect(value(text, 'rt_mail_outbox_messages{status="pending"}')).toBeGreaterThanOrEqual(0);
  expect(value(text, 'rt_mail_outbox_messages{status="sending"}')).toBeGreaterThanOrEqual(0);
  expect(value(text, "rt_mail_outbox_oldest_unsent_age_seconds")).toBeGreaterThanOrEqual(0);
  expect(value(text, "rt_live_streams")).toBe(0);
  expect(value(text, 'rt_db_statement_duration_seconds_count{pool="primary",outcome="ok"}')).toBeGreaterThan(0);
  if (database.driver === "pg") expect(value(text, 'rt_db_pool_max_connections{pool="primary"}')).toBe(10);
  expect(text).toContain('rt_cache_hits_total{cache="public-pages"}');
  expect(text).toMatch(/^process_cpu_seconds_total /m);
  // The jobs ran at start (JOBS_START_DELAY_MS=0): each one's last success is a recent unix time.
  const now = Date.now() / 1000;
  for (const job of ["mandate expiry reminders", "insurance reminders", "reputation refresh", "notification purge"]) {
    await expect
      .poll(async () => value((await send(local(), "/metrics")).body, `rt_job_last_success_timestamp_seconds{job="${job}"}`) ?? 0, { timeout: 30_000, message: job })
      .toBeGreaterThan(now - 120);
  }
});

it("refuses a forwarded request from this machine (a local proxy), forged loopback included", async () => {
  for (const headers of [{ "x-forwarded-for": "203.0.113.7" }, { "x-forwarded-for": "127.0.0.1" }, { forwarded: "for=127.0.0.1" }, { "x-real-ip": "127.0.0.1" }] as Array<Record<string, string>>) {
    const r = await send(local(), "/metrics", { headers });
    expect({ headers, status: r.status }).toEqual({ headers, status: 404 });
    expect(r.body).not.toContain("rt_");
  }
  // The token opens it through a proxy too; a wrong one does not, even from here.
  expect((await send(local(), "/metrics", { headers: { "x-forwarded-for": "203.0.113.7", authorization: `Bearer ${TOKEN}` } })).status).toBe(200);
  expect((await send(local(), "/metrics", { headers: { authorization: `Bearer ${TOKEN}-x` } })).status).toBe(404);
});

it.skipIf(!lanAddress)("answers 404 to a client on the network without the token, 200 with it", async () => {
  const base = `http://${lanAddress}:${server!.port}`;
  expect((await send(base, "/healthz", { from: lanAddress })).status).toBe(200);
  for (const headers of [{}, { "x-forwarded-for": "127.0.0.1" }, { "x-real-ip": "::1" }, { authorization: "Bearer wrong" }, { authorization: `Basic ${TOKEN}` }] as Array<Record<string, string>>) {
    const r = await send(base, "/metrics", { from: lanAddress, headers });
    expect({ headers, status: r.status }).toEqual({ headers, status: 404 });
    expect(r.body).not.toContain("rt_");
  }
  const allowed = await send(base, "/metrics", { from: lanAddress, headers: { authorization: `Bearer ${TOKEN}` } });
  expect(allowed.status).toBe(200);
  expect(allowed.body).toContain("rt_http_request_duration_seconds_count");
});

type OtlpSpan = { traceId: string; spanId: string; parentSpanId?: string; name: string; attributes: Array<{ key: string; value: { stringValue?: string } }> };

function exportedSpans(): OtlpSpan[] {
  return exported.flatMap((entry) => {
    const body = JSON.parse(entry.slice(entry.indexOf(" ") + 1)) as { resourceSpans: Array<{ scopeSpans: Array<{ spans: OtlpSpan[] }> }> };
    return body.resourceSpans.flatMap((r) => r.scopeSpans.flatMap((s) => s.spans));
  });
}

it("exports each request's span with its route id and request id, its statements as children", async () => {
  const r = await send(local(), "/readyz");
  expect(r.status).toBe(200);
  const requestId = r.headers["x-request-id"] as string;
  expect(requestId).toMatch(/^[0-9a-f-]{36}$/);
  const withId = (span: OtlpSpan) => span.attributes.some((a) => a.key === "rt.request_id" && a.value.stringValue === requestId);
  await expect.poll(() => exportedSpans().find(withId), { timeout: 20_000 }).toBeDefined();
  expect(exported.every((entry) => entry.startsWith("/v1/traces "))).toBe(true);
  const span = exportedSpans().find(withId)!;
  expect(span.name).toBe("GET routes/api/readyz");
  // Its `select 1` is a child span (exported in the same batch or the next).
  await expect.poll(() => exportedSpans().find((s) => s.parentSpanId === span.spanId && s.name === "db.statement"), { timeout: 20_000 }).toBeDefined();
});
