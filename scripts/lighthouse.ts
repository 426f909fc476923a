// npm run lighthouse -- [--runs N] [--no-build] [--keep-reports]
// Front-end budgets of the public pages, on the production build, on a fresh machine (no
// PostgreSQL needed):
//   1. `npm run build` (skipped with --no-build when build/ exists);
//   2. a temporary PGlite DATA_DIR seeded with `scripts/seed.ts --members 40 --seed 7`;
//   3. the production server (`npm run serve`: node build/server.js) on a free loopback port, without
//      SMTP_URL, i.e. with the local-mailbox banner that this mode shows on every page;
//   4. Lighthouse (npm `lighthouse`, default config = mobile preset, simulated throttling) in
//      Chromium (CHROME_PATH, default /usr/bin/chromium; --headless=new --no-sandbox --disable-gpu)
//      on /, /annuaire and /consultant/{slug} (the first validated profile listed by /annuaire),
//      categories performance, accessibility, best-practices and seo.
// Each route is audited --runs times (default 3): the performance score is noisy on a busy
// 2-core machine, so the run with the median performance score is the one reported (all the
// performance scores are kept in the JSON). JavaScript shipped: every request of resource type
// "Script" in Lighthouse's network-requests audit (entry module, route chunks, modulepreloads),
// each file fetched again and gzip-compressed here (zlib, level 9), summed; the bytes on the wire
// as Lighthouse saw them are in the JSON too.
// Budgets: performance ≥ 95, accessibility 100, best practices 100, SEO 100, JS ≤ 120 KB gzip
// per route. Prints a table, writes bench/lighthouse.json (with every failing audit) and the
// `lighthouse` section of docs/quality.md. Exit code 1 when a budget is missed, 2 on bad usage
// or when the run could not be done. --keep-reports writes the full Lighthouse JSON reports
// to bench/lighthouse-reports/. Server, Chromium and temp dir are removed on every way out.
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { gzipSync } from "node:zlib";
import * as chromeLauncher from "chrome-launcher";
import lighthouse, { type Result as LhResult } from "lighthouse";
import { startServer, type RunningServer } from "./bench/server";
import { mdTable, runContext, writeQualitySection } from "./quality/report";

const USAGE = "Usage : npm run lighthouse -- [--runs N] [--no-build] [--keep-reports]";
const RESULTS_FILE = path.resolve("bench/lighthouse.json");
const REPORTS_DIR = path.resolve("bench/lighthouse-reports");
const CATEGORIES = ["performance", "accessibility", "best-practices", "seo"] as const;
type Category = (typeof CATEGORIES)[number];
const BUDGETS: Record<Category, number> & { jsKb: number } = {
  performance: 95,
  accessibility: 100,
  "best-practices": 100,
  seo: 100,
  jsKb: 120,
};
const CHROME_FLAGS = ["--headless=new", "--no-sandbox", "--disable-gpu"];

function fail(message: string): never {
  console.error(`${message}\n${USAGE}`);
  process.exit(2);
}

// Cleanup, whatever the way out: normal end, error, Ctrl-C.
let server: RunningServer | undefined;
let chrome: chromeLauncher.LaunchedChrome | undefined;
let tmpDir: string | undefined;
let cleaning: Promise<void> | undefined;

function killChrome() {
  try {
    chrome?.kill();
  } catch {
    // Already gone.
  }
  chrome = undefined;
}

function cleanup(): Promise<void> {
  cleaning ??= (async () => {
    killChrome();
    await server?.stop().catch(() => {});
    server = undefined;
    if (tmpDir) rmSync(tmpDir, { recursive: true, force: true });
  })();
  return cleaning;
}

process.on("exit", () => {
  killChrome();
  server?.killSync();
  if (tmpDir) rmSync(tmpDir, { recursive: true, force: true });
});
for (const sig of ["SIGINT", "SIGTERM"] as const) {
  process.on(sig, () => {
    if (cleaning) return;
    console.error(`\n${sig} : arrêt, nettoyage…`);
    void cleanup().finally(() => process.exit(130));
  });
}

type FailedAudit = { id: string; title: string; score: number | null; displayValue?: string; items?: string[] };
type RouteResult = {
  route: string;
  url: string;
  scores: Record<Category, number>;
  performanceRuns: number[];
  metrics: Record<string, number | undefined>;
  js: { files: Array<{ url: string; gzipBytes: number; wireBytes: number }>; gzipBytes: number; wireBytes: number };
  failedAudits: Record<Category, FailedAudit[]>;
  budgetOk: boolean;
  misses: string[];
};

const score100 = (lhr: LhResult, c: Category) => Math.round((lhr.categories[c]?.score ?? 0) * 100);

/** The audits of a category that did not pass (informative and not-applicable ones left out). */
function failedAudits(lhr: LhResult, c: Category): FailedAudit[] {
  const out: FailedAudit[] = [];
  for (const ref of lhr.categories[c]?.auditRefs ?? []) {
    const audit = lhr.audits[ref.id];
    if (!audit || audit.score === null || audit.score >= 0.9) continue;
    if (c !== "performance" && ref.weight === 0) continue;
    if (c === "performance" && audit.scoreDisplayMode === "informative") continue;
    const details = audit.details as { items?: Array<Record<string, unknown>> } | undefined;
    const items = (details?.items ?? []).slice(0, 8).map((item) => {
      const node = item.node as { snippet?: string; selector?: string } | undefined;
      const text = node?.snippet ?? node?.selector ?? (typeof item.url === "string" ? item.url : undefined);
      return text ?? JSON.stringify(item).slice(0, 200);
    });
    out.push({ id: audit.id, title: audit.title, score: audit.score, displayValue: audit.displayValue, items: items.length ? items : undefined });
  }
  return out;
}

type NetworkItem = { url: string; resourceType?: string; transferSize?: number };

async function scriptSizes(lhr: LhResult) {
  const details = lhr.audits["network-requests"]?.details as { items?: NetworkItem[] } | undefined;
  const scripts = (details?.items ?? []).filter((i) => i.resourceType === "Script");
  const seen = new Set<string>();
  const files: RouteResult["js"]["files"] = [];
  for (const s of scripts) {
    if (seen.has(s.url)) continue;
    seen.add(s.url);
    const res = await fetch(s.url, { headers: { "accept-encoding": "identity" } });
    if (!res.ok) throw new Error(`${s.url} : HTTP ${res.status}`);
    const body = Buffer.from(await res.arrayBuffer());
    files.push({ url: new URL(s.url).pathname, gzipBytes: gzipSync(body, { level: 9 }).length, wireBytes: s.transferSize ?? 0 });
  }
  return {
    files,
    gzipBytes: files.reduce((a, f) => a + f.gzipBytes, 0),
    wireBytes: files.reduce((a, f) => a + f.wireBytes, 0),
  };
}

async function pickProfileSlug(base: string): Promise<string> {
  const res = await fetch(`${base}/annuaire`);
  if (!res.ok) throw new Error(`/annuaire : HTTP ${res.status}`);
  const html = await res.text();
  const fromDirectory = /href="\/consultant\/([^"?#]+)"/.exec(html)?.[1];
  if (fromDirectory) return decodeURIComponent(fromDirectory);
  const sitemap = await (await fetch(`${base}/sitemap.xml`)).text();
  const fromSitemap = /\/consultant\/([^<\s"?#]+)/.exec(sitemap)?.[1];
  if (!fromSitemap) throw new Error("Aucun profil validé trouvé dans /annuaire ni dans le sitemap.");
  return decodeURIComponent(fromSitemap);
}

/** One Lighthouse run in a fresh Chromium; a run that fails to record (NO_NAVSTART and the like,
 * seen now and then on a busy machine) is retried twice. */
async function lighthouseOnce(url: string, chromePath: string): Promise<LhResult> {
  let lastError = "";
  for (let attempt = 0; attempt < 3; attempt++) {
    chrome = await chromeLauncher.launch({ chromePath, chromeFlags: CHROME_FLAGS, logLevel: "error" });
    try {
      const out = await lighthouse(url, { port: chrome.port, output: "json", logLevel: "error", onlyCategories: [...CATEGORIES] });
      if (!out) throw new Error(`Lighthouse n'a rien renvoyé pour ${url}`);
      if (!out.lhr.runtimeError) return out.lhr;
      lastError = `${out.lhr.runtimeError.code} ${out.lhr.runtimeError.message}`;
    } finally {
      killChrome();
    }
    if (cleaning) break;
    console.error(`  ${url} : ${lastError} — nouvel essai`);
  }
  throw new Error(`Lighthouse : ${lastError}`);
}

async function audit(url: string, chromePath: string, runs: number, keepAs: string | undefined) {
  const results: LhResult[] = [];
  for (let i = 0; i < runs; i++) {
    if (cleaning) throw new Error("Interrompu.");
    results.push(await lighthouseOnce(url, chromePath));
  }
  const performanceRuns = results.map((r) => score100(r, "performance"));
  // The run with the median performance score (the lower middle one for an even count).
  const sorted = [...results].sort((a, b) => score100(a, "performance") - score100(b, "performance"));
  const lhr = sorted[Math.floor((sorted.length - 1) / 2)]!;
  if (keepAs) {
    mkdirSync(REPORTS_DIR, { recursive: true });
    writeFileSync(path.join(REPORTS_DIR, `${keepAs}.json`), JSON.stringify(lhr, null, 1));
  }
  return { lhr, performanceRuns };
}

async function main() {
  let values: Record<string, string | boolean | undefined>;
  try {
    ({ values } = parseArgs({
      args: process.argv.slice(2),
      options: {
        runs: { type: "string" },
        "no-build": { type: "boolean" },
        "keep-reports": { type: "boolean" },
        help: { type: "boolean", short: "h" },
      },
      strict: true,
      allowPositionals: false,
    }));
  } catch (error) {
    fail(error instanceof Error ? error.message : String(error));
  }
  if (values.help) {
    console.log(USAGE);
    return 0;
  }
  const runsArg = typeof values.runs === "string" ? values.runs : "3";
  if (!/^\d+$/.test(runsArg) || Number(runsArg) < 1 || Number(runsArg) > 9) fail(`--runs doit être un entier entre 1 et 9 (reçu : ${runsArg}).`);
  const runs = Number(runsArg);
  const chromePath = process.env.CHROME_PATH || "/usr/bin/chromium";
  if (!existsSync(chromePath)) fail(`Chromium introuvable (${chromePath}) : installez-le (apt-get install -y chromium) ou définissez CHROME_PATH.`);

  const started = performance.now();
  const step = (line: string) => console.log(`[${((performance.now() - started) / 1000).toFixed(0).padStart(4)} s] ${line}`);

  // 1. Build.
  if (values["no-build"] === true && existsSync("build/server.js")) {
    step("Build ignoré (--no-build)");
  } else {
    step("npm run build…");
    const build = spawnSync("npm", ["run", "--silent", "build"], { stdio: ["ignore", "ignore", "inherit"] });
    if (build.status !== 0) throw new Error("npm run build a échoué");
  }

  // 2. Fresh embedded database with the demo data of the browser suite.
  tmpDir = mkdtempSync(path.join(os.tmpdir(), "rt-lighthouse-"));
  const dataDir = path.join(tmpDir, "data");
  const dbEnv = { DATA_DIR: dataDir, DATABASE_URL: "", SMTP_URL: "", LOG_LEVEL: "warn" };
  step("Données de démonstration (40 membres, graine 7)…");
  const seed = spawnSync("npx", ["tsx", "scripts/seed.ts", "--members", "40", "--seed", "7"], {
    env: { ...process.env, ...dbEnv },
    stdio: ["ignore", "ignore", "inherit"],
  });
  if (seed.status !== 0) throw new Error("Le seed a échoué");

  // 3. Production server.
  step("Démarrage du serveur de production…");
  server = await startServer({ NODE_ENV: "production", ...dbEnv });
  const base = server.baseUrl;
  const slug = await pickProfileSlug(base);
  const routes = [
    { route: "/", path: "/" },
    { route: "/annuaire", path: "/annuaire" },
    { route: "/consultant/{slug}", path: `/consultant/${encodeURIComponent(slug)}` },
  ];
  step(`Serveur prêt sur ${base} ; profil audité : /consultant/${slug}`);

  // 4. Lighthouse.
  const results: RouteResult[] = [];
  let lighthouseVersion = "";
  for (const r of routes) {
    if (cleaning) throw new Error("Interrompu.");
    step(`Lighthouse ${r.path} (${runs} passage${runs > 1 ? "s" : ""})…`);
    const keepAs = values["keep-reports"] === true ? (r.route === "/" ? "landing" : r.route.split("/")[1]!) : undefined;
    const { lhr, performanceRuns } = await audit(`${base}${r.path}`, chromePath, runs, keepAs);
    lighthouseVersion = lhr.lighthouseVersion;
    const scores = Object.fromEntries(CATEGORIES.map((c) => [c, score100(lhr, c)])) as Record<Category, number>;
    const js = await scriptSizes(lhr);
    const misses = [
      ...CATEGORIES.filter((c) => scores[c] < BUDGETS[c]).map((c) => `${c} ${scores[c]} < ${BUDGETS[c]}`),
      ...(js.gzipBytes > BUDGETS.jsKb * 1024 ? [`JS ${(js.gzipBytes / 1024).toFixed(1)} KB > ${BUDGETS.jsKb} KB`] : []),
    ];
    const numeric = (id: string) => lhr.audits[id]?.numericValue;
    results.push({
      route: r.route,
      url: r.path,
      scores,
      performanceRuns,
      metrics: {
        fcpMs: numeric("first-contentful-paint"),
        lcpMs: numeric("largest-contentful-paint"),
        tbtMs: numeric("total-blocking-time"),
        cls: numeric("cumulative-layout-shift"),
        speedIndexMs: numeric("speed-index"),
      },
      js,
      failedAudits: Object.fromEntries(CATEGORIES.map((c) => [c, failedAudits(lhr, c)])) as Record<Category, FailedAudit[]>,
      budgetOk: misses.length === 0,
      misses,
    });
  }
  const chromeVersion = spawnSync(chromePath, ["--version"], { encoding: "utf8" }).stdout.trim();
  await cleanup();

  // 5. Report.
  const kb = (b: number) => (b / 1024).toFixed(1);
  const header = ["Route", "Perf", "A11y", "BP", "SEO", "JS (Ko gzip)", "Budget"];
  const rows = results.map((r) => [
    r.route,
    runs > 1 ? `${r.scores.performance} (${r.performanceRuns.join("/")})` : r.scores.performance,
    r.scores.accessibility,
    r.scores["best-practices"],
    r.scores.seo,
    kb(r.js.gzipBytes),
    r.budgetOk ? "OK" : "MISS",
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((row) => String(row[i]).length)));
  const line = (cells: (string | number)[]) => cells.map((c, i) => String(c).padEnd(widths[i]!)).join("  ");
  console.log(`\n${line(header)}\n${widths.map((w) => "-".repeat(w)).join("  ")}\n${rows.map(line).join("\n")}`);
  for (const r of results) {
    for (const c of CATEGORIES) {
      for (const a of r.failedAudits[c]) console.log(`  ${r.route} · ${c} · ${a.id} (${a.score ?? "—"}) ${a.title}${a.displayValue ? ` — ${a.displayValue}` : ""}`);
    }
    if (r.misses.length) console.log(`  ${r.route} : MISS ${r.misses.join(", ")}`);
  }
  const allOk = results.every((r) => r.budgetOk);
  console.log(allOk ? "\nTous les budgets sont tenus." : "\nAu moins un budget n'est pas tenu.");

  mkdirSync(path.dirname(RESULTS_FILE), { recursive: true });
  writeFileSync(
    RESULTS_FILE,
    JSON.stringify(
      {
        date: new Date().toISOString(),
        context: runContext(),
        lighthouse: lighthouseVersion,
        chrome: chromeVersion,
        preset: "mobile (default config, simulated throttling)",
        runsPerRoute: runs,
        selection: "run with the median performance score",
        jsMeasure: "Script requests of network-requests, each fetched and gzip-compressed (zlib level 9)",
        budgets: BUDGETS,
        routes: results,
        allOk,
      },
      null,
      2,
    ) + "\n",
  );
  writeQualitySection(
    "lighthouse",
    [
      "## Lighthouse (`npm run lighthouse`)",
      "",
      `${runContext()} · Lighthouse ${lighthouseVersion} · ${chromeVersion} · préréglage mobile (throttling simulé) · ${runs} passage(s) par page, passage de performance médiane retenu${runs > 1 ? " (les scores de chaque passage entre parenthèses)" : ""}.`,
      "Données : seed `--members 40 --seed 7` sur PGlite, serveur de production sans SMTP (bandeau « Mode local » affiché).",
      "JS : somme des scripts chargés par la page (requêtes « Script » de Lighthouse), chacun compressé en gzip (niveau 9).",
      "",
      mdTable(header, rows),
      "",
      `Budgets : performance ≥ ${BUDGETS.performance}, accessibilité ${BUDGETS.accessibility}, bonnes pratiques ${BUDGETS["best-practices"]}, SEO ${BUDGETS.seo}, JS ≤ ${BUDGETS.jsKb} Ko gzip par page. ${allOk ? "Tous tenus." : "Au moins un budget manqué (détail dans `bench/lighthouse.json`)."}`,
    ].join("\n"),
  );
  step(`Résultats : ${path.relative(process.cwd(), RESULTS_FILE)}, docs/quality.md`);
  return allOk ? 0 : 1;
}

main()
  .then((code) => process.exit(code))
  .catch(async (error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    await cleanup();
    process.exit(2);
  });
