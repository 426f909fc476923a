// npm run bench:ab -- --variant 'name|KEY=V KEY=V' --variant 'name|…' [--members N] [--rounds R]
//   [--duration D] [--connections C] [--no-build] [--database-url URL] [--keep-database] [--no-public] [--only REGEX]
// Interleaved A/B of server variants on one seeded database (decision 037): every variant runs
// as its own production server (same build, its own environment), and each round measures every
// step on every variant in turn (the order alternating from one round to the next), the static
// copy included, so that each figure is read as a ratio to the static copy of the same variant
// in the same round — the machine's load moves all of them together. See bench/README.md.
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { sql } from "drizzle-orm";
import { closeDatabase, db, initDatabase } from "~/db/client.server";
import { createCli } from "./cli";
import { createBenchDatabase, type BenchDatabase } from "./bench/database";
import { pickSlugs } from "./bench/in-process";
import { runLoad, stopLoad, type LoadResult } from "./bench/load";
import { dataPath, findPersonaData, signInCookie } from "./bench/member";
import { startServer, type RunningServer } from "./bench/server";
import { seedDemoData } from "./seed-lib";

const USAGE =
  "Usage : npm run bench:ab -- --variant 'nom|CLE=valeur …' --variant 'nom|…' [--members N] [--rounds R] [--duration D] [--connections C] [--no-build] [--database-url URL] [--keep-database] [--no-public] [--only REGEX]";

const STATIC_PATH = "/bench-ab-static.html";
const SETTLE_MS = 1500;
const STATIC_FILE = path.resolve(`build/client${STATIC_PATH}`);

export type Variant = { name: string; env: Record<string, string> };

/** `name|KEY=V KEY=V` → a variant (values without spaces). */
export function parseVariant(text: string): Variant {
  const [name, rest = ""] = text.split("|", 2);
  const env: Record<string, string> = {};
  for (const pair of rest.split(/\s+/).filter(Boolean)) {
    const at = pair.indexOf("=");
    if (at <= 0) throw new Error(`Variante « ${text} » : ${pair} n'est pas CLE=valeur.`);
    env[pair.slice(0, at)] = pair.slice(at + 1);
  }
  if (!name?.trim()) throw new Error(`Variante « ${text} » sans nom.`);
  return { name: name.trim(), env };
}

type Step = { key: string; label: string; paths: string[]; headers: Record<string, string>; member: boolean };

const cli = createCli(USAGE);
let database: BenchDatabase | undefined;
let keepDatabase = false;
let tmpDir: string | undefined;
const servers: RunningServer[] = [];

async function cleanup() {
  stopLoad();
  rmSync(STATIC_FILE, { force: true });
  await Promise.all(servers.map((s) => s.stop().catch(() => {})));
  await closeDatabase().catch(() => {});
  if (!keepDatabase) await database?.drop().catch(() => {});
  if (tmpDir) rmSync(tmpDir, { recursive: true, force: true });
}
process.on("exit", () => {
  for (const s of servers) s.killSync();
  if (!keepDatabase) database?.dropSync();
  rmSync(STATIC_FILE, { force: true });
});
for (const sig of ["SIGINT", "SIGTERM"] as const) process.on(sig, () => void cleanup().finally(() => process.exit(130)));

/** Resident memory (MB) of the server's node process (the group's largest). */
function residentMb(server: RunningServer): number | null {
  const out = spawnSync("ps", ["-o", "pgid=,rss=", "-A"], { encoding: "utf8" }).stdout;
  let max = 0;
  for (const line of out.split("\n")) {
    const [pgid, rss] = line.trim().split(/\s+/).map(Number);
    if (pgid === server.child.pid && rss! > max) max = rss!;
  }
  return max ? Math.round(max / 1024) : null;
}

/** The server's node process (the one running build/server.js in the group npm started). */
function serverPid(server: RunningServer): number | null {
  const out = spawnSync("ps", ["-o", "pid=,pgid=,args=", "-A"], { encoding: "utf8" }).stdout;
  for (const line of out.split("\n")) {
    const m = /^\s*(\d+)\s+(\d+)\s+(.*)$/.exec(line);
    if (m && Number(m[2]) === server.child.pid && /\bnode\b.*build\/server\.js/.test(m[3]!) && !m[3]!.startsWith("npm")) return Number(m[1]);
  }
  return null;
}

/** CPU time (ms, user + system) the process has used so far: less sensitive to a shared machine than throughput. */
function cpuMs(pid: number | null): number {
  if (pid === null) return Number.NaN;
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS;
}
const CLOCK_TICKS = Number(spawnSync("getconf", ["CLK_TCK"], { encoding: "utf8" }).stdout.trim()) || 100;

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};

async function main() {
  const values = cli.parse({
    variant: { type: "string", multiple: true },
    members: { type: "string" },
    rounds: { type: "string" },
    duration: { type: "string" },
    connections: { type: "string" },
    "no-build": { type: "boolean" },
    "database-url": { type: "string" },
    "keep-database": { type: "boolean" },
    "no-public": { type: "boolean" },
    only: { type: "string" },
  });
  if (!values) return;
  const variants = ((values.variant as unknown as string[] | undefined) ?? []).map(parseVariant);
  if (variants.length < 2) cli.fail("Au moins deux --variant.");
  const members = cli.count("members", values.members, 100_000, 3);
  const rounds = cli.count("rounds", values.rounds, 4, 1);
  const durationS = cli.count("duration", values.duration, 3, 1);
  const connections = cli.count("connections", values.connections, 10, 1);
  keepDatabase = values["keep-database"] === true;
  const given = cli.string(values["database-url"]);
  const started = performance.now();
  const step = (line: string) => console.log(`[${((performance.now() - started) / 1000).toFixed(0).padStart(4)} s] ${line}`);

  tmpDir = mkdtempSync(path.join(os.tmpdir(), "rt-bench-ab-"));
  const dataDir = path.join(tmpDir, "data");
  let url: string;
  if (given) {
    url = given;
    keepDatabase = true;
    step(`Base existante : ${given}`);
    await initDatabase({ url, poolMax: 4 });
  } else {
    database = await createBenchDatabase(dataDir);
    if (!database.url) throw new Error("L'A/B demande PostgreSQL (BENCH_DATABASE_URL ou le serveur local).");
    url = database.url;
    step(`Base : ${database.description}${keepDatabase ? " (gardée : --database-url pour la reprendre)" : ""}`);
    await initDatabase({ url, poolMax: 4 });
    const seed = await seedDemoData(db, { members, mandates: members, log: (line) => step(line.trim()) });
    step(`Seed terminé en ${(seed.elapsedMs / 1000).toFixed(1)} s ; VACUUM ANALYZE…`);
    await db.execute(sql`vacuum analyze`);
  }
  const premium = await findPersonaData("premium");
  const slugs = await pickSlugs(200);
  await closeDatabase();

  if (values["no-build"] === true && existsSync("build/server.js")) step("Build ignoré (--no-build)");
  else {
    step("npm run build…");
    if (spawnSync("npm", ["run", "--silent", "build"], { stdio: ["ignore", "ignore", "inherit"] }).status !== 0) throw new Error("npm run build a échoué");
  }
  for (const v of variants) {
    servers.push(
      await startServer({
        NODE_ENV: "production",
        DATABASE_URL: url,
        DATA_DIR: dataDir,
        SMTP_URL: "",
        RATE_LIMIT_SCALE: "1000",
        JOBS_START_DELAY_MS: String(2 * 60 * 60_000),
        ...v.env,
      }),
    );
    step(`${v.name} : ${servers.at(-1)!.baseUrl} ${JSON.stringify(v.env)}`);
  }
  const cookies = await Promise.all(servers.map((s) => signInCookie(s.baseUrl, premium.email)));
  const dashboard = await fetch(`${servers[0]!.baseUrl}/dashboard`, { headers: { cookie: cookies[0]!, accept: "text/html" } });
  if (dashboard.status !== 200) throw new Error(`/dashboard : HTTP ${dashboard.status}`);
  writeFileSync(STATIC_FILE, await dashboard.text());

  const pages = [
    ["/dashboard", "/dashboard"],
    ["/dashboard/annuaire", "/dashboard/annuaire"],
    ...(premium.mandateId ? [["/mandates?matching=…", `/mandates?matching=${premium.mandateId}`]] : []),
    ["/dashboard/profil", "/dashboard/profil"],
  ] as const;
  const steps: Step[] = [{ key: "static", label: "copie statique de /dashboard", paths: [STATIC_PATH], headers: {}, member: false }];
  for (const [label, p] of pages) {
    steps.push({ key: `${label} document`, label: `${label} document`, paths: [p], headers: {}, member: true });
    steps.push({ key: `${label} .data`, label: `${label} .data`, paths: [dataPath(p)], headers: { accept: "*/*" }, member: true });
  }
  if (values["no-public"] !== true) steps.push({ key: "public profile (page cache)", label: "/consultant/{slug} anonyme (cache de pages)", paths: slugs.map((s) => `/consultant/${s}`), headers: {}, member: false });

  const only = cli.string(values.only);
  if (only) {
    const pattern = new RegExp(only);
    for (let k = steps.length - 1; k > 0; k--) if (!pattern.test(steps[k]!.label)) steps.splice(k, 1);
  }

  // Warm-up, not measured: every path of every step once per server, then one short run each.
  for (const [i, s] of servers.entries()) {
    for (const st of steps) {
      for (const p of st.paths) {
        const res = await fetch(`${s.baseUrl}${p}`, { headers: { ...st.headers, ...(st.member ? { cookie: cookies[i]! } : {}) } });
        await res.arrayBuffer();
        if (!res.ok) throw new Error(`${variants[i]!.name} ${p} : HTTP ${res.status}`);
      }
      await runLoad({ baseUrl: s.baseUrl, paths: st.paths, label: st.label, connections, durationS: 1, headers: { ...st.headers, ...(st.member ? { cookie: cookies[i]! } : {}) } });
    }
  }

  // results[variant][step] = one LoadResult per round; cpu: the server's CPU ms per response.
  const results: LoadResult[][][] = variants.map(() => steps.map(() => []));
  const cpu: number[][][] = variants.map(() => steps.map(() => []));
  const pids = servers.map(serverPid);
  for (let r = 0; r < rounds; r++) {
    step(`Tour ${r + 1}/${rounds}`);
    for (const [j, st] of steps.entries()) {
      const order = variants.map((_, i) => i);
      if ((r + j) % 2) order.reverse();
      for (const i of order) {
        const s = servers[i]!;
        const before = cpuMs(pids[i]!);
        const run = await runLoad({ baseUrl: s.baseUrl, paths: st.paths, label: st.label, connections, durationS, headers: { ...st.headers, ...(st.member ? { cookie: cookies[i]! } : {}) } });
        // The requests still in flight when a run stops are finished by the server: the next run
        // (another variant's) would otherwise share the machine with them.
        await new Promise((r) => setTimeout(r, SETTLE_MS));
        results[i]![j]!.push(run);
        cpu[i]![j]!.push((cpuMs(pids[i]!) - before) / Math.max(1, run.requests));
      }
    }
  }
  const memory = servers.map(residentMb);

  // Per step: median over rounds of (req/s ÷ static req/s of the same variant and round), p50, p95.
  const table: string[][] = [["Étape", ...variants.flatMap((v, i) => [`${v.name} % statique`, "p50", "p95", "CPU/rép.", ...(i ? [`CPU / ${variants[0]!.name}`] : [])])]];
  const summary: Record<string, Record<string, { ratio: number; p50: number; p95: number; reqPerSec: number; cpuMs: number; errors: number }>> = {};
  for (const [j, st] of steps.entries()) {
    const row = [st.label];
    const cpus: number[] = [];
    for (const [i, v] of variants.entries()) {
      const runs = results[i]![j]!;
      const ratio = median(runs.map((run, r) => run.reqPerSec / results[i]![0]![r]!.reqPerSec));
      const p50 = median(runs.map((run) => run.p50));
      const p95 = median(runs.map((run) => run.p95));
      const errors = runs.reduce((n, run) => n + run.errors + run.non2xx, 0);
      const cpuPerResponse = median(cpu[i]![j]!);
      cpus.push(cpuPerResponse);
      (summary[v.name] ??= {})[st.key] = { ratio, p50, p95, reqPerSec: median(runs.map((run) => run.reqPerSec)), cpuMs: cpuPerResponse, errors };
      row.push(`${(ratio * 100).toFixed(0)} %${errors ? ` (${errors} err.)` : ""}`, `${p50.toFixed(1)} ms`, `${p95.toFixed(1)} ms`, `${cpuPerResponse.toFixed(2)} ms`);
      if (i) row.push(`${cpuPerResponse <= cpus[0]! ? "" : "+"}${((cpuPerResponse / cpus[0]! - 1) * 100).toFixed(0)} %`);
    }
    table.push(row);
  }
  console.log(`\nA/B entrelacé — ${rounds} tours × ${durationS} s par étape et variante, ${connections} connexions, ${os.cpus().length} cœurs, Node ${process.version}`);
  const widths = table[0]!.map((_, k) => Math.max(...table.map((r) => r[k]!.length)));
  for (const [k, r] of table.entries()) {
    console.log(r.map((c, m) => (m === 0 ? c.padEnd(widths[m]!) : c.padStart(widths[m]!))).join("  "));
    if (k === 0) console.log(widths.map((w) => "-".repeat(w)).join("  "));
  }
  console.log(`Mémoire résidente après les mesures : ${variants.map((v, i) => `${v.name} ${memory[i] ?? "?"} Mo`).join(", ")}`);
  writeFileSync("bench/ab-results.json", `${JSON.stringify({ date: new Date().toISOString(), variants, rounds, durationS, connections, summary, memoryMb: memory }, null, 2)}\n`);
  step("Résultats écrits dans bench/ab-results.json");
}

main()
  .then(cleanup)
  .catch(async (error: unknown) => {
    console.error(error);
    await cleanup();
    process.exit(1);
  });
