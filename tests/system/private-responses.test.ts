// Private responses and caches (issue 26, item 4), on the production server: every route of
// app/routes.ts, asked by a signed-in member as a document and as its `.data` form, answers with
// `Cache-Control: private` plus `no-store` (or `no-cache` where the response is revalidated), and
// a resource route's `.data` form never runs its loader (a reload of its own URL instead).
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import routeConfig from "../../app/routes";
import { shareBenchDocument, signInCookie } from "../../scripts/bench/member";
import { demoLoginEmail } from "../../scripts/seed-lib";
import { createSystemDatabase, runScript, type SystemDatabase } from "./support/database";
import { startServer, type RunningServer } from "./support/server";

let database: SystemDatabase;
let server: RunningServer;
let cookie: string;
let params: Record<string, string>;
let documentPath: string;

type RouteNode = { path?: string; index?: boolean; file: string; children?: RouteNode[] };

function flatten(nodes: RouteNode[], parent = ""): string[] {
  const out: string[] = [];
  for (const n of nodes) {
    const path = n.index ? parent || "/" : `${parent === "/" ? "" : parent}/${n.path ?? ""}`.replace(/\/+$/, "") || "/";
    out.push(path);
    if (n.children) out.push(...flatten(n.children, path));
  }
  return [...new Set(out)];
}

/** Public by design: the same bytes for everyone, whoever asks (app/lib/private-cache.ts). */
const PUBLIC_DOCUMENTS = new Set(["/robots.txt", "/sitemap.xml", "/manifest.webmanifest"]);

async function get(path: string, init: RequestInit = {}) {
  const res = await fetch(`${server.baseUrl}${path}`, { redirect: "manual", ...init, headers: { cookie, ...(init.headers as Record<string, string>) } });
  // Headers are what is checked; the notification stream never ends.
  await res.body?.cancel();
  return res;
}

function firstMatch(html: string, pattern: RegExp, what: string): string {
  const m = html.match(pattern);
  if (!m) throw new Error(`${what} introuvable`);
  return m[1]!;
}

function expectPrivate(res: Response, where: string) {
  const value = res.headers.get("cache-control") ?? "";
  const directives = value.split(",").map((d) => d.trim().toLowerCase());
  expect(directives, `${where} (HTTP ${res.status}) Cache-Control: ${value}`).toContain("private");
  expect(directives.includes("no-store") || directives.includes("no-cache"), `${where} (HTTP ${res.status}) Cache-Control: ${value}`).toBe(true);
}

beforeAll(async () => {
  database = await createSystemDatabase();
  runScript(database, ["scripts/seed.ts", "--members", "12", "--seed", "26"]);
  server = await startServer(database.env);
  cookie = await signInCookie(server.baseUrl, demoLoginEmail("premium", 26));
  const html = async (path: string) => (await fetch(`${server.baseUrl}${path}`, { headers: { cookie, accept: "text/html" } })).text();
  const fileId = firstMatch(await html("/dashboard/dossiers"), /\/dashboard\/dossiers\/([0-9a-f-]{36})/, "dossier");
  documentPath = (await shareBenchDocument(server.baseUrl, cookie, fileId)).replace(/\?.*$/, "");
  const directory = await html("/annuaire");
  params = {
    fileId,
    documentId: documentPath.split("/").pop()!,
    slug: firstMatch(directory, /\/consultant\/([a-z0-9-]+)/, "fiche publique"),
  };
  try {
    params.conversationId = firstMatch(await html("/dashboard/messages"), /\/dashboard\/messages\/((?:confrere|dossier|contact)-[0-9a-f-]{36})/, "conversation");
  } catch {
    // No conversation in this seed: a random id answers 404, still a response to check.
  }
}, 240_000);

afterAll(async () => {
  await server?.stop();
  await database?.drop();
});

/** A concrete URL for a route pattern: known ids where the seed has them, else a random one. */
function concrete(pattern: string): string {
  return pattern.replace(/:(\w+)/g, (_, name: string) => params[name] ?? randomUUID()).replace(/\*$/, "x");
}

describe("a signed-in member's responses", () => {
  it("every route of app/routes.ts, as a document and as .data, is private and not stored", async () => {
    const paths = flatten(routeConfig as unknown as RouteNode[]).map(concrete);
    expect(paths.length).toBeGreaterThan(50);
    const statuses: string[] = [];
    for (const path of paths) {
      const doc = await get(path, { headers: { accept: "text/html" } });
      statuses.push(`${path} ${doc.status}`);
      if (PUBLIC_DOCUMENTS.has(path)) expect(doc.headers.get("cache-control"), path).toMatch(/^public/);
      else expectPrivate(doc, path);
      const dataPath = path === "/" ? "/_root.data" : `${path}.data`;
      const data = await get(dataPath);
      statuses.push(`${dataPath} ${data.status}`);
      expectPrivate(data, dataPath);
    }
    // The walk reached real content, not only redirects and 404s.
    for (const reached of ["/parametres 200", "/parametres.data 200", `/dashboard/dossiers/${params.fileId} 200`, "/parametres/export 200", `${documentPath} 200`]) {
      expect(statuses).toContain(reached);
    }
  });

  it("a form sent to a page's .data form is private too", async () => {
    const res = await get("/parametres.data", {
      method: "POST",
      headers: { origin: server.baseUrl, "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ intent: "notifications", messages: "weekly" }).toString(),
    });
    expect(res.status).toBeLessThan(400);
    expectPrivate(res, "POST /parametres.data");
  });

  it("a resource route's .data form is a reload of its own URL; the file keeps its own headers", async () => {
    for (const path of ["/parametres/export", documentPath, `/dashboard/dossiers/${params.fileId}/historique`]) {
      const data = await get(`${path}.data`);
      expect(data.status, `${path}.data`).toBe(204);
      expect(data.headers.get("x-remix-redirect")).toBe(path);
      expect(data.headers.get("x-remix-reload-document")).toBe("true");
      expect(data.headers.get("content-disposition")).toBeNull();
      const file = await get(path);
      expect(file.status, path).toBe(200);
      expect(file.headers.get("content-disposition"), path).toMatch(/^(attachment|inline)/);
      expect(file.headers.get("cache-control"), path).toBe("private, no-store");
    }
    // With a query, kept; React Router's own `_routes` dropped.
    const withQuery = await get(`${documentPath}.data?mode=view&_routes=root`);
    expect(withQuery.headers.get("x-remix-redirect")).toBe(`${documentPath}?mode=view`);
  });
});

describe("an anonymous visitor's responses", () => {
  it("public pages keep their own rule (the page cache still keeps them)", async () => {
    const res = await fetch(`${server.baseUrl}/annuaire`, { headers: { accept: "text/html" } });
    await res.body?.cancel();
    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control") ?? "").not.toMatch(/private|no-store/);
  });
});
