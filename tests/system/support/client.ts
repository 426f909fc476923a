// A bare HTTP client for system tests: the raw request line as written (no URL normalisation, so
// `//auth` and `/api/webhooks/../auth` reach the server as such), any header (Host, Origin,
// X-Forwarded-For…), a chosen loopback source address (127.0.0.N, so that tests do not share the
// per-address rate-limit budgets), and the Set-Cookie lines of the answer.
import http from "node:http";
import path from "node:path";
import pg from "pg";
import { openPglite } from "~/db/client.server";
import type { SystemDatabase } from "./database";

export type Answer = {
  status: number;
  location: string | undefined;
  /** The raw Set-Cookie lines. */
  setCookies: string[];
  headers: http.IncomingHttpHeaders;
  body: string;
};

export type RequestOptions = {
  method?: string;
  headers?: Record<string, string>;
  /** A form (application/x-www-form-urlencoded unless a content-type header says otherwise). */
  form?: Record<string, string>;
  /** A raw body. */
  body?: string;
  /** Loopback source address, e.g. "127.0.0.12" (the server sees it as the client address). */
  from?: string;
};

export function send(baseUrl: string, path: string, options: RequestOptions = {}): Promise<Answer> {
  const { hostname, port } = new URL(baseUrl);
  const body = options.form ? new URLSearchParams(options.form).toString() : (options.body ?? "");
  const headers: Record<string, string> = { ...(options.headers ?? {}) };
  const lower = new Set(Object.keys(headers).map((k) => k.toLowerCase()));
  if (options.form && !lower.has("content-type")) headers["content-type"] = "application/x-www-form-urlencoded";
  if (body) headers["content-length"] = String(Buffer.byteLength(body));
  return new Promise((resolve, reject) => {
    const req = http.request(
      { host: hostname, port: Number(port), method: options.method ?? (body ? "POST" : "GET"), path, headers, localAddress: options.from },
      (res) => {
        let text = "";
        res.setEncoding("utf8");
        res.on("data", (c: string) => (text += c));
        res.on("end", () => {
          const sc = res.headers["set-cookie"] ?? [];
          resolve({ status: res.statusCode ?? 0, location: res.headers.location, setCookies: sc, headers: res.headers, body: text });
        });
        res.on("error", reject);
      },
    );
    req.on("error", reject);
    req.end(body);
  });
}

export type CookieAttributes = { name: string; value: string; attributes: Map<string, string | true> };

/** Parses one Set-Cookie line; attribute names are lower-cased. */
export function parseSetCookie(line: string): CookieAttributes {
  const [pair, ...rest] = line.split(";");
  const eq = pair.indexOf("=");
  const attributes = new Map<string, string | true>();
  for (const part of rest) {
    const i = part.indexOf("=");
    if (i === -1) attributes.set(part.trim().toLowerCase(), true);
    else attributes.set(part.slice(0, i).trim().toLowerCase(), part.slice(i + 1).trim());
  }
  return { name: pair.slice(0, eq).trim(), value: pair.slice(eq + 1).trim(), attributes };
}

/** A browser's cookie jar, reduced to what the tests need: set, expire, send. */
export class CookieJar {
  private readonly cookies = new Map<string, string>();

  store(answer: Pick<Answer, "setCookies">): this {
    for (const line of answer.setCookies) {
      const c = parseSetCookie(line);
      const maxAge = c.attributes.get("max-age");
      const expires = c.attributes.get("expires");
      const expired = (typeof maxAge === "string" && Number(maxAge) <= 0) || (typeof expires === "string" && Date.parse(expires) < Date.now());
      if (expired || c.value === "") this.cookies.delete(c.name);
      else this.cookies.set(c.name, c.value);
    }
    return this;
  }

  get(name: string): string | undefined {
    return this.cookies.get(name);
  }

  set(name: string, value: string): this {
    this.cookies.set(name, value);
    return this;
  }

  header(): string {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join("; ");
  }

  clone(): CookieJar {
    const copy = new CookieJar();
    for (const [k, v] of this.cookies) copy.set(k, v);
    return copy;
  }
}

/** SQL statements run in order against the test database from this process; the rows of the last
 * one. PGlite allows one process at a time: call it while no server runs on an embedded database. */
export async function sqlRows<T = Record<string, unknown>>(database: SystemDatabase, ...statements: string[]): Promise<T[]> {
  let rows: T[] = [];
  if (database.url) {
    const client = new pg.Client({ connectionString: database.url });
    await client.connect();
    try {
      for (const statement of statements) rows = (await client.query(statement)).rows as T[];
    } finally {
      await client.end();
    }
    return rows;
  }
  const client = await openPglite(path.join(database.dataDir, "pglite"));
  try {
    for (const statement of statements) rows = (await client.query<T>(statement)).rows;
  } finally {
    await client.close();
  }
  return rows;
}
