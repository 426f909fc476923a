// The cache of anonymous public pages on the production server: hits are the rendered page,
// stored compressed, with a CSP listing its scripts' hashes; signed-in visitors and data requests bypass it, and a write made by anyone (here:
// another client of the database, as another instance would) is visible on the next request.
import { existsSync, mkdtempSync, readFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { profileIdFromSlug } from "~/lib/slug";
import { signInCookie } from "../../scripts/bench/member";
import { demoLoginEmail } from "../../scripts/seed-lib";
import { createSystemDatabase, runScript, type SystemDatabase } from "./support/database";
import { expectCachedCopy } from "./support/cached-copy";
import { startServer, type RunningServer } from "./support/server";

let database: SystemDatabase;
let server: RunningServer;
let slug: string;
let queryLog: string;

beforeAll(async () => {
  database = await createSystemDatabase();
  runScript(database, ["scripts/seed.ts", "--members", "12", "--seed", "11"]);
  // QUERY_LOG: the statements of the requests sent with X-Query-Log (the directory's total, below).
  queryLog = path.join(mkdtempSync(path.join(os.tmpdir(), "rt-page-cache-")), "queries.jsonl");
  server = await startServer({ ...database.env, QUERY_LOG: queryLog }, { capture: true });
  const directory = await (await fetch(`${server.baseUrl}/annuaire`)).text();
  const found = /href="\/consultant\/([a-z0-9-]+)"/.exec(directory);
  if (!found) throw new Error("no profile link on /annuaire");
  slug = found[1]!;
});

afterAll(async () => {
  await server?.stop();
  await database?.drop();
});

async function fetchPage(path: string, headers: Record<string, string> = {}) {
  const res = await fetch(`${server.baseUrl}${path}`, { headers });
  return { res, body: await res.text() };
}

/** The page once the cache holds it (it is kept once compressed, off the main thread). */
async function fetchHit(path: string, headers: Record<string, string> = {}) {
  const deadline = Date.now() + 5000;
  for (;;) {
    const page = await fetchPage(path, headers);
    if (page.res.headers.get("x-cache") === "HIT" || Date.now() > deadline) return page;
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe("anonymous public pages", () => {
  it("are rendered once, then served from memory, their scripts allowed by hash", async () => {
    const path = `/consultant/${slug}`;
    // The landing page warms up first: the cache may have been emptied by the seed's writes.
    const first = await fetchPage(path);
    expect(first.res.status).toBe(200);
    expect(first.res.headers.get("x-cache")).toBe("MISS");
    const second = await fetchHit(path);
    expect(second.res.headers.get("x-cache")).toBe("HIT");
    expectCachedCopy(first, second);
    // Compressed as the client accepts: brotli, gzip, or as text.
    const br = await fetchPage(path, { "accept-encoding": "gzip, deflate, br" });
    expect(br.res.headers.get("x-cache")).toBe("HIT");
    expect(br.res.headers.get("content-encoding")).toBe("br");
    expectCachedCopy(first, br);
    const gz = await fetchPage(path, { "accept-encoding": "gzip" });
    expect(gz.res.headers.get("x-cache")).toBe("HIT");
    expect(gz.res.headers.get("content-encoding")).toBe("gzip");
    expectCachedCopy(first, gz);
    const plain = await fetchPage(path, { "accept-encoding": "identity" });
    expect(plain.res.headers.get("x-cache")).toBe("HIT");
    expect(plain.res.headers.get("content-encoding")).toBeNull();
    expectCachedCopy(first, plain);
  });

  it.each(["/", "/annuaire", "/annuaire?departement=75", "/faq"])("%s is cached too", async (path) => {
    await fetchPage(path);
    const again = await fetchHit(path);
    expect(again.res.status).toBe(200);
    expect(again.res.headers.get("x-cache")).toBe("HIT");
  });

  it("is bypassed by visitors with a session cookie, by data requests and by private pages", async () => {
    const signedIn = await fetchPage(`/consultant/${slug}`, { cookie: "rt.session_token=forged" });
    expect(signedIn.res.status).toBe(200);
    expect(signedIn.res.headers.get("x-cache")).toBeNull();
    const data = await fetchPage(`/consultant/${slug}.data`);
    expect(data.res.headers.get("x-cache")).toBeNull();
    const dashboard = await fetchPage("/dashboard");
    expect(dashboard.res.headers.get("x-cache")).toBeNull();
  });

  it("leaves what it bypasses to on-the-fly compression: brotli for a browser, gzip, or as text", async () => {
    const path = `/consultant/${slug}.data`;
    const plain = await fetchPage(path, { "accept-encoding": "identity" });
    expect(plain.res.headers.get("content-encoding")).toBeNull();
    expect(plain.body).toContain("routes/public/consultant");
    for (const [accepted, encoding] of [
      ["gzip, deflate, br, zstd", "br"],
      ["gzip", "gzip"],
    ] as const) {
      const compressed = await fetchPage(path, { "accept-encoding": accepted });
      expect(compressed.res.status).toBe(200);
      expect(compressed.res.headers.get("x-cache")).toBeNull();
      expect(compressed.res.headers.get("content-encoding")).toBe(encoding);
      // Decoded, the same data but for the request's own id.
      const requestIds = /"requestId","[0-9a-f-]{36}"/g;
      expect(compressed.body.replace(requestIds, "")).toBe(plain.body.replace(requestIds, ""));
    }
  });

  it("never keeps a 404", async () => {
    const missing = "/consultant/personne-inconnue-avocat-00000000-0000-4000-8000-000000000000";
    expect((await fetchPage(missing)).res.status).toBe(404);
    const again = await fetchPage(missing);
    expect(again.res.status).toBe(404);
    expect(again.res.headers.get("x-cache")).toBe("MISS");
  });
});

describe("invalidation", () => {
  it("shows a change written by another database client on the next requests", async (ctx) => {
    if (database.driver !== "pg") {
      ctx.skip(); // PGlite: one process owns the database; the in-process path is an integration test.
      return;
    }
    const path = `/consultant/${slug}`;
    await fetchPage(path);
    expect((await fetchHit(path)).res.headers.get("x-cache")).toBe("HIT");
    const company = `Cabinet Invalidation ${Date.now()}`;
    const client = new pg.Client({ connectionString: database.url });
    await client.connect();
    try {
      const updated = await client.query("update profiles set company = $1 where id = $2", [company, profileIdFromSlug(slug)]);
      expect(updated.rowCount).toBe(1);
    } finally {
      await client.end();
    }
    const deadline = Date.now() + 5000;
    let body = "";
    while (Date.now() < deadline) {
      body = (await fetchPage(path)).body;
      if (body.includes(company)) break;
      await new Promise((r) => setTimeout(r, 50));
    }
    expect(body).toContain(company);
    // The directory, which shows the company on the card, is fresh too.
    expect((await fetchPage("/annuaire")).body).toContain(company);
  });
});

describe("the internal directory's total (decision 023)", () => {
  it("is kept by the instance and follows a write made by another database client", async (ctx) => {
    if (database.driver !== "pg") {
      ctx.skip(); // PGlite: one process owns the database; the cache's rules are integration tests.
      return;
    }
    const cookie = await signInCookie(server.baseUrl, demoLoginEmail("premium", 11));
    const total = async () => {
      const res = await fetch(`${server.baseUrl}/dashboard/annuaire`, { headers: { cookie } });
      expect(res.status).toBe(200);
      const m = /data-testid="result-count">([\d\s\u202f]+) confrère/.exec(await res.text());
      if (!m) throw new Error("no result count on /dashboard/annuaire");
      return Number(m[1]!.replace(/\D/g, ""));
    };
    const before = await total();
    expect(before).toBeGreaterThan(1);
    // The second view reads the kept total: its statement counts nothing.
    const res = await fetch(`${server.baseUrl}/dashboard/annuaire`, { headers: { cookie, "x-query-log": "directory-total" } });
    expect(res.status).toBe(200);
    await res.arrayBuffer();
    const logged = existsSync(queryLog) ? readFileSync(queryLog, "utf8").split("\n").filter(Boolean).map((l) => JSON.parse(l) as { label: string; sql: string }) : [];
    const directory = logged.filter((q) => q.label === "directory-total" && q.sql.includes("as matching"));
    expect(directory).toHaveLength(1);
    expect(directory[0]!.sql).not.toContain("count(*)::int as matching");
    expect(await total()).toBe(before);
    const client = new pg.Client({ connectionString: database.url });
    await client.connect();
    const waitForTotal = async (expected: number) => {
      const deadline = Date.now() + 5000;
      let seen = await total();
      while (seen !== expected && Date.now() < deadline) {
        await new Promise((r) => setTimeout(r, 50));
        seen = await total();
      }
      expect(seen).toBe(expected);
    };
    try {
      const [row] = (
        await client.query<{ id: string }>(
          `select p.id from profiles p join "user" u on u.id = p.user_id where p.profile_status = 'validated' and u.email <> $1 order by p.created_at limit 1`,
          [demoLoginEmail("premium", 11)],
        )
      ).rows;
      await client.query("update profiles set profile_status = 'suspended' where id = $1", [row!.id]);
      await waitForTotal(before - 1);
      await client.query("update profiles set profile_status = 'validated' where id = $1", [row!.id]);
      await waitForTotal(before);
    } finally {
      await client.end();
    }
  });
});
