// The production build starts on an empty database, migrates it and reports ready: one compiled
// server (build/server.js) run by plain node, with every app module loaded once (decision 042).
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, expect, it } from "vitest";
import { productionServerArgs } from "../../scripts/runtime/server-args";
import { createSystemDatabase, type SystemDatabase } from "./support/database";
import { startServer, type RunningServer } from "./support/server";

const root = path.resolve(import.meta.dirname, "../..");
const recorder = fileURLToPath(new URL("./support/module-recorder.mjs", import.meta.url));

let database: SystemDatabase;
let server: RunningServer | undefined;
let recordDir: string;

beforeAll(async () => {
  database = await createSystemDatabase();
  recordDir = mkdtempSync(path.join(os.tmpdir(), "rt-modules-"));
  server = await startServer(
    // QUERY_STATS: every response says how many statements the request scope counted.
    { ...database.env, QUERY_STATS: "1", NODE_OPTIONS: `--import=${recorder}`, MODULE_RECORD_DIR: recordDir },
    { capture: true },
  );
});

afterAll(async () => {
  await server?.stop();
  await database?.drop();
  rmSync(recordDir, { recursive: true, force: true });
});

it("serves /healthz and /readyz on a freshly migrated database", async () => {
  const health = await fetch(`${server!.baseUrl}/healthz`);
  expect(health.status).toBe(200);
  const ready = await fetch(`${server!.baseUrl}/readyz`);
  expect(ready.status).toBe(200);
  const home = await fetch(`${server!.baseUrl}/`);
  expect(home.status).toBe(200);
  expect(await home.text()).toContain("<html");
});

it("serves the build's files, while a page's path goes to the router", async () => {
  const icon = await fetch(`${server!.baseUrl}/favicon.svg`);
  expect(icon.status).toBe(200);
  expect(icon.headers.get("content-type")).toContain("image/svg+xml");
  expect(icon.headers.get("cache-control")).toBe("public, max-age=3600");
  const home = await (await fetch(`${server!.baseUrl}/`)).text();
  const asset = /\/assets\/[\w.-]+\.js/.exec(home)?.[0];
  expect(asset).toBeDefined();
  const script = await fetch(`${server!.baseUrl}${asset}`);
  expect(script.status).toBe(200);
  expect(script.headers.get("cache-control")).toContain("immutable");
  // No file of that name: the router's French 404 page, not a bare "Cannot GET".
  const missing = await fetch(`${server!.baseUrl}/favicon`);
  expect(missing.status).toBe(404);
  expect(await missing.text()).toContain("<html");
  const missingFile = await fetch(`${server!.baseUrl}/absent.svg`);
  expect(missingFile.status).toBe(404);
});

it("counts a page's statements in the request scope server.ts opened: one instance of the module", async () => {
  // server.ts opens the scope and reads its count; the directory's loader runs its statements in
  // it. Were request-scope.server.ts loaded twice, the loader's statements would count elsewhere.
  const page = await fetch(`${server!.baseUrl}/annuaire`);
  expect(page.status).toBe(200);
  expect(Number(page.headers.get("x-query-count"))).toBeGreaterThan(0);
});

it("stops on SIGTERM", async () => {
  server!.signal("SIGTERM");
  expect(await server!.exited(15_000)).toBe(true);
  server = undefined;
});

type Record = { argv: string[]; execArgv: string[]; modules: string[] };

it("ran build/server.js with plain node: no TypeScript loader, no source file, no development package", () => {
  const records = readdirSync(recordDir)
    .filter((f) => f.endsWith(".json"))
    .map((f) => JSON.parse(readFileSync(path.join(recordDir, f), "utf8")) as Record);
  // npm (which `npm run serve` starts first) records itself too.
  const servers = records.filter((r) => !/[\\/]npm(-cli\.js)?$/.test(r.argv[1] ?? ""));
  expect(servers.map((r) => r.argv.slice(1))).toEqual([[path.join(root, "build", "server.js")]]);
  const { execArgv, modules } = servers[0]!;
  // The serve script's options, and no module hook among them (--import tsx, --loader…).
  expect(execArgv).toEqual(productionServerArgs(root).slice(0, -1));
  expect(execArgv.filter((a) => /^(--import|--loader|--experimental-loader|--require|-r)\b/.test(a))).toEqual([]);

  const files = modules.filter((url) => url.startsWith("file:")).map((url) => fileURLToPath(url));
  expect(files.length).toBeGreaterThan(100);
  const packages = files.filter((f) => f.includes(`${path.sep}node_modules${path.sep}`));
  const own = files.filter((f) => !packages.includes(f) && f !== recorder && !f.endsWith("module-recorder-hooks.mjs"));
  expect(packages.filter((f) => f.includes(`${path.sep}node_modules${path.sep}tsx${path.sep}`))).toEqual([]);
  expect(files.filter((f) => /\.[cm]?tsx?$/.test(f))).toEqual([]);
  // The app comes from the server build only: build/server.js, build/server/index.js and its chunks.
  expect(own.filter((f) => !f.startsWith(path.join(root, "build") + path.sep))).toEqual([]);
  expect(own).toContain(path.join(root, "build", "server", "index.js"));

  // Nothing an `npm ci --omit=dev` install leaves out (package-lock.json's `dev: true`), but what
  // is loaded only when present.
  const lock = JSON.parse(readFileSync(path.join(root, "package-lock.json"), "utf8")) as { packages: { [key: string]: { dev?: boolean } } };
  const devOnly = new Set<string>();
  for (const file of packages) {
    const key = lockKey(file);
    if (lock.packages[key]?.dev && !OPTIONAL_WHEN_PRESENT.has(key)) devOnly.add(key);
  }
  expect([...devOnly]).toEqual([]);
});

/** Development packages a production package requires inside a `try`: absent, it goes without. */
const OPTIONAL_WHEN_PRESENT = new Set([
  // `debug` (express, compression) for coloured output; without it, plain output.
  "node_modules/supports-color",
  "node_modules/has-flag",
]);

/** `…/node_modules/@scope/a/node_modules/b/lib/x.js` → `node_modules/@scope/a/node_modules/b`. */
function lockKey(file: string): string {
  const parts = file.split(path.sep);
  const key: string[] = [];
  for (let i = parts.indexOf("node_modules"); i >= 0 && i < parts.length; ) {
    if (parts[i] !== "node_modules") break;
    const name = parts[i + 1]!.startsWith("@") ? [parts[i + 1]!, parts[i + 2]!] : [parts[i + 1]!];
    key.push("node_modules", ...name);
    i += 1 + name.length;
  }
  return key.join("/");
}
