// npm run bench -- [--members N] [--mandates M] [--duration D] [--connections C] [--no-build] [--pglite] [--sessions] [--browser]
// On a fresh database (a throwaway PostgreSQL database on BENCH_DATABASE_URL or the local server,
// else a temporary PGlite data dir): seeds N members and M mandates, measures the SQL of the
// directory and of the matcher in-process, builds and starts the production server, loads it with
// autocannon on loopback, prints a table and writes bench/results.json. Targets are reported
// (OK / MISS), never asserted. See bench/README.md.
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { sql } from "drizzle-orm";
import { closeDatabase, db, initDatabase } from "~/db/client.server";
import { seedDemoData } from "./seed-lib";
import { queryRows } from "~/db/query.server";
import { createCli } from "./cli";
import { mdTable, runContext, writeQualitySection } from "./quality/report";
import { createBenchDatabase, type BenchDatabase } from "./bench/database";
import { fetchMedian, type Fetched } from "./bench/http";
import { commonSurname, countRows, pickSlugs, timeDirectorySql, timeMatching, wholeListApproach, type Timing, type WholeList } from "./bench/in-process";
import { failedRequests, runLoad, SOAK, soakPaths, stopLoad, type LoadResult } from "./bench/load";
import { startServer, type RunningServer } from "./bench/server";
import { explainPages, explainTable, queryLogHeader, readQueryLog } from "./bench/explain";
import { adminPages, createBenchAdmins, findAdminData, seedBenchAdminData, type AdminData } from "./bench/admin";
import { findPersonaData, measureMemberPages, MEMBER_TARGETS, memberTargetsText, memberVerdict, type MemberResults } from "./bench/member";
import { findSessionMembers, measureSessionMix, type SessionMember, type SessionMixResults } from "./bench/sessions";
import { readBuildRoutes } from "./bench/navigation";
import { LARGE_FILE, seedLargeFile } from "./bench/large-file";
import { measureBrowserNavigations, type BrowserResults } from "./bench/browser";

const USAGE =
  "Usage : npm run bench -- [--members N] [--mandates M] [--duration D] [--connections C] [--member-duration D] [--member-connections C] [--no-member] [--no-build] [--pglite] [--report | --no-report] [--soak] " +
  "[--sessions] [--no-sessions] [--session-duration D] [--session-members N] [--browser] [--database-url URL] [--keep-database]";

const TARGETS = {
  profileReqPerSec: 600,
  profileP95Ms: 50,
  directorySqlP95Ms: 15,
  matchingP95Ms: 30,
  bytesRatio: 50,
  /** Issue 17: the server render of a public profile without the page cache, as a share of its static copy's throughput. */
  profileSsrRatio: 0.4,
} as const;

const STATIC_FILE = path.resolve("build/client/bench-static.html");
const MEMBER_STATIC_FILE = path.resolve("build/client/bench-static-member.html");
const SESSION_STATIC_PATH = "/bench-static-session.html";
const SESSION_STATIC_FILE = path.resolve(`build/client${SESSION_STATIC_PATH}`);
/** The session mix's target: every step's p95 under this, at the level the report names. */
const SESSION_LIMIT_MS = 100;

const cli = createCli(USAGE);

// Cleanup, whatever the way out: normal end, error, Ctrl-C.
let server: RunningServer | undefined;
let database: BenchDatabase | undefined;
let tmpDir: string | undefined;
let cleaned = false;
let cleaning: Promise<void> | undefined;

function cleanup(): Promise<void> {
  cleaning ??= (async () => {
    cleaned = true;
    stopLoad();
    rmSync(STATIC_FILE, { force: true });
    rmSync(MEMBER_STATIC_FILE, { force: true });
    rmSync(SESSION_STATIC_FILE, { force: true });
    await server?.stop().catch(() => {});
    await closeDatabase().catch(() => {});
    await database?.drop().catch((e: unknown) => console.error("Suppression de la base temporaire impossible :", e));
    if (tmpDir) rmSync(tmpDir, { recursive: true, force: true });
  })();
  return cleaning;
}

process.on("exit", () => {
  server?.killSync();
  database?.dropSync();
  rmSync(STATIC_FILE, { force: true });
  rmSync(MEMBER_STATIC_FILE, { force: true });
  rmSync(SESSION_STATIC_FILE, { force: true });
  if (tmpDir) rmSync(tmpDir, { recursive: true, force: true });
});
for (const sig of ["SIGINT", "SIGTERM"] as const) {
  process.on(sig, () => {
    if (cleaning) return;
    console.error(`\n${sig} : arrêt, nettoyage…`);
    void cleanup().finally(() => process.exit(130));
  });
}

const ms = (v: number) => (Number.isFinite(v) ? `${v.toFixed(1)} ms` : "—");
const kb = (b: number) => `${(b / 1024).toFixed(1)} Ko`;
const ok = (pass: boolean) => (pass ? "OK" : "MISS");

/** Requests every path once (4 at a time), as visitors would have before the measure. */
async function warmUp(base: string, paths: readonly string[]) {
  const queue = [...new Set(paths)];
  await Promise.all(
    Array.from({ length: 4 }, async () => {
      for (let p = queue.shift(); p !== undefined; p = queue.shift()) {
        const res = await fetch(`${base}${p}`, { headers: { accept: "text/html" } });
        await res.arrayBuffer();
      }
    }),
  );
}

async function main() {
  const values = cli.parse({
    members: { type: "string" },
    mandates: { type: "string" },
    duration: { type: "string" },
    connections: { type: "string" },
    "no-build": { type: "boolean" },
    pglite: { type: "boolean" },
    report: { type: "boolean" },
    "no-report": { type: "boolean" },
    soak: { type: "boolean" },
    "member-duration": { type: "string" },
    "member-connections": { type: "string" },
    "no-member": { type: "boolean" },
    sessions: { type: "boolean" },
    "no-sessions": { type: "boolean" },
    "session-duration": { type: "string" },
    "session-members": { type: "string" },
    browser: { type: "boolean" },
    "database-url": { type: "string" },
    "keep-database": { type: "boolean" },
  });
  if (!values) return;
  const members = cli.count("members", values.members, 100_000, 3);
  const mandateCount = cli.count("mandates", values.mandates, members, 0);
  const durationS = cli.count("duration", values.duration, 20, 1);
  const connections = cli.count("connections", values.connections, 50, 1);
  const noBuild = values["no-build"] === true;
  const memberDurationS = cli.count("member-duration", values["member-duration"], 8, 1);
  const memberConnections = cli.count("member-connections", values["member-connections"], 10, 1);
  const sessionsOnly = values.sessions === true;
  const withMembers = values["no-member"] !== true && !sessionsOnly;
  const withSessions = values["no-sessions"] !== true;
  const sessionDurationS = cli.count("session-duration", values["session-duration"], 15, 2);
  const sessionMemberCount = cli.count("session-members", values["session-members"], 40, 1);
  const started = performance.now();
  const step = (line: string) => console.log(`[${((performance.now() - started) / 1000).toFixed(0).padStart(4)} s] ${line}`);

  tmpDir = mkdtempSync(path.join(os.tmpdir(), "rt-bench-"));
  database = await benchDatabase(path.join(tmpDir, "data"), values.pglite === true, cli.string(values["database-url"]), values["keep-database"] === true);
  step(`Base : ${database.description}`);

  // 1. Seed, then the in-process measures (before the server: PGlite allows one process only).
  await initDatabase({ url: database.url, dataDir: database.url ? undefined : database.dataDir, poolMax: 4 });
  step(`Données : ${members} membres, ${mandateCount} mandats…`);
  const seed = await seedDemoData(db, {
    members,
    mandates: mandateCount,
    log: (line) => step(line.trim()),
  });
  step(seed.skipped ? "Base déjà peuplée : seed ignoré" : `Seed terminé en ${(seed.elapsedMs / 1000).toFixed(1)} s`);
  if (sessionsOnly) {
    if (!seed.skipped) await db.execute(sql`vacuum analyze`);
    const sessionMembers = await findSessionMembers(sessionMemberCount);
    const counts = await countRows();
    await closeDatabase();
    await buildAndStart(noBuild, step, path.join(tmpDir, "queries.jsonl"));
    const mix = await sessionSection(sessionMembers, sessionDurationS, step);
    const browser = values.browser ? await browserSection(step, sessionMembers[0]) : null;
    printSessionMix(mix, browser, counts, database.driver);
    writeSessionResults(mix, browser, counts);
    step("Résultats écrits dans bench/sessions-results.json");
    return;
  }
  if (withMembers && !(await benchAdminDataPresent())) {
    // The admin tabs (issue 17): administrators as `npm run admin:create` makes them (one per
    // measured page for the fresh sessions, plus the one measured), mediations and an audit log.
    const allPages = adminPages({ applicantId: "-", mediationId: "-", commonWord: "-" }).length;
    await createBenchAdmins(allPages + 1);
    const added = await seedBenchAdminData();
    step(`Administration : ${allPages + 1} administrateurs, ${added.mediations} médiations, ${added.auditEntries} lignes du journal`);
  } else if (withMembers) {
    // A kept database: each run enrols its administrators' authenticators afresh through the app.
    await db.execute(sql`delete from two_factor where user_id in (select id from "user" where email like 'admin-bench-%')`);
    await db.execute(sql`update "user" set two_factor_enabled = false where email like 'admin-bench-%'`);
  }
  const large = withMembers ? await seedLargeFile() : null;
  if (withMembers) step(large ? `Grand dossier : ${LARGE_FILE.participants} intervenants, ${LARGE_FILE.documents} documents, ${LARGE_FILE.requests} demandes de diligence` : "Grand dossier : aucun dossier ouvert disponible, lignes omises");
  step("VACUUM ANALYZE…");
  // The steady state of a live database (autovacuum would get there within minutes, in the
  // middle of the measures): visibility map set, so that index-only scans can skip the heap.
  await db.execute(sql`vacuum analyze`);
  const counts = await countRows();
  const slugs = await pickSlugs(500);
  const surname = await commonSurname();
  step(`SQL de l'annuaire filtré (200 exécutions)…`);
  const directorySql = await timeDirectorySql(200);
  step(`Mandats potentiels (200 exécutions sur ${counts.activeMandates} mandats actifs)…`);
  const matching: Timing = await timeMatching(200);
  step(`Approche du prototype : liste complète en JSON…`);
  const wholeList: WholeList = await wholeListApproach(3);
  const personas = withMembers ? await Promise.all((["premium", "freemium", "fondateur"] as const).map((k) => findPersonaData(k))) : [];
  const adminData: AdminData | null = withMembers ? await findAdminData() : null;
  const sessionMembers = withSessions || values.browser ? await findSessionMembers(sessionMemberCount) : [];
  await closeDatabase();

  // 2. Build and start the production server.
  const queryLogFile = path.join(tmpDir, "queries.jsonl");
  server = await buildAndStart(noBuild, step, queryLogFile);
  const base = server.baseUrl;

  // 3. The static baseline: one profile page saved as a file served by express.static.
  const sample = await fetch(`${base}/consultant/${slugs[0]}`);
  if (!sample.ok) throw new Error(`/consultant/${slugs[0]} : HTTP ${sample.status}`);
  mkdirSync(path.dirname(STATIC_FILE), { recursive: true });
  writeFileSync(STATIC_FILE, await sample.text());

  // 4. Load.
  const surnameQuery = `/annuaire?q=${encodeURIComponent(surname.name)}`;
  const filtersQuery = "/annuaire?departement=75&secteur=G";
  // The page cache (app/lib/page-cache.server.ts) serves anonymous pages from memory once they
  // have been rendered: every path is requested once before its run (warm cache, as on a live
  // site), and the profiles are measured a second time with a cookie of ours, which makes the
  // cache step aside (the cost of server rendering itself).
  const NO_CACHE = { cookie: "rt_bench=no-cache" };
  const profilePaths = slugs.map((s) => `/consultant/${s}`);
  const runs: Array<{ key: string; label: string; paths: string[]; headers?: Record<string, string> }> = [
    { key: "profile", label: "/consultant/{slug} (500 profils, cache chaud)", paths: profilePaths },
    { key: "profileSsr", label: "/consultant/{slug} sans cache (rendu SSR)", paths: profilePaths, headers: NO_CACHE },
    // The floor of a server render here: the same layout, no loader of its own and no SQL
    // statement (an anonymous visitor), rendered every time (docs/decisions/history/bench-issue-17.md, eleventh pass).
    { key: "textSsr", label: "/cgu sans cache (texte seul, aucune requête SQL)", paths: ["/cgu"], headers: NO_CACHE },
    { key: "directoryText", label: `/annuaire?q=${surname.name}`, paths: [surnameQuery] },
    { key: "directoryFilters", label: filtersQuery, paths: [filtersQuery] },
    { key: "static", label: "/bench-static.html (même HTML, statique)", paths: ["/bench-static.html"] },
  ];
  const load: Record<string, LoadResult> = {};
  for (const run of runs) {
    if (cleaned) throw new Error("Interrompu.");
    if (!run.headers) await warmUp(base, run.paths);
    step(`autocannon ${run.label} : ${durationS} s, ${connections} connexions…`);
    load[run.key] = await runLoad({ baseUrl: base, paths: run.paths, label: run.label, connections, durationS, headers: run.headers });
  }
  // --soak: the reliability suite's load test, public pages mixed, 0 errors expected.
  if (values.soak) {
    if (cleaned) throw new Error("Interrompu.");
    const paths = soakPaths(profilePaths);
    await warmUp(base, paths);
    step(`Endurance : /, /annuaire, /consultant/{slug} mélangés, ${SOAK.durationS} s, ${SOAK.connections} connexions…`);
    load.soak = await runLoad({ baseUrl: base, paths, label: "Endurance : /, /annuaire, /consultant/{slug}", ...SOAK });
  }

  // 5. First directory result, as sent (compressed as for a browser), against the whole list (gzip).
  if (cleaned) throw new Error("Interrompu.");
  const firstPage: Fetched = await fetchMedian(`${base}/annuaire`, 10);

  // 6. Signed-in pages: each as a document, then as the `.data` navigation a browser sends.
  const member = withMembers ? await measureMemberPages(base, personas, { durationS: memberDurationS, connections: memberConnections, staticFile: MEMBER_STATIC_FILE }, step, adminData, large) : null;
  // 6b. The session mix and, with --browser, click → paint in Chromium.
  const mix = withSessions && sessionMembers.length ? await sessionSection(sessionMembers, sessionDurationS, step) : null;
  const browser = values.browser ? await browserSection(step, sessionMembers[0]) : null;
  // The public pages' statements too (rendered, not from the page cache), for the EXPLAIN step.
  const publicPages: Array<[string, string]> = [["/annuaire", "/annuaire"], [surnameQuery, surnameQuery], [filtersQuery, filtersQuery], [profilePaths[0]!, "/consultant/{slug} (sans cache)"]];
  for (const [pagePath, label] of publicPages) {
    const res = await fetch(`${base}${pagePath}`, { headers: { ...NO_CACHE, accept: "text/html", ...queryLogHeader(label) } });
    await res.arrayBuffer();
  }
  await server.stop();
  server = undefined;

  // 7. EXPLAIN of every statement of every measured page, on the seeded database.
  step("EXPLAIN des requêtes de chaque page…");
  await initDatabase({ url: database.url, dataDir: database.url ? undefined : database.dataDir, poolMax: 2 });
  const explained = await explainPages(readQueryLog(queryLogFile));
  await closeDatabase();
  const explainRows = explainTable(explained);

  const profile = load.profile;
  const ssrRatio = profile.reqPerSec / load.static.reqPerSec;
  const ssrNoCacheRatio = load.profileSsr.reqPerSec / load.static.reqPerSec;
  const textSsrRatio = load.textSsr.reqPerSec / load.static.reqPerSec;
  const bytesRatio = wholeList.gzipBytes / firstPage.wireBytes;
  const checks = {
    profileReqPerSec: profile.reqPerSec >= TARGETS.profileReqPerSec,
    profileP95: profile.p95 < TARGETS.profileP95Ms,
    directorySqlP95: directorySql.p95 < TARGETS.directorySqlP95Ms,
    matchingP95: matching.p95 < TARGETS.matchingP95Ms,
    bytesRatio: bytesRatio >= TARGETS.bytesRatio,
    profileSsrRatio: ssrNoCacheRatio >= TARGETS.profileSsrRatio,
    ...(load.soak ? { soakNoErrors: failedRequests(load.soak) === 0 } : {}),
  };

  // 6. Report.
  const rows: string[][] = [["Mesure", "req/s", "p50", "p95", "p99", "octets/req", "erreurs / non-2xx", "Cible", ""]];
  const loadRow = (r: LoadResult, target: string, status: string) => [
    r.path, r.reqPerSec.toFixed(0), ms(r.p50), ms(r.p95), ms(r.p99), String(r.bytesPerReq), `${r.errors} / ${r.non2xx}`, target, status,
  ];
  rows.push(loadRow(profile, `≥ ${TARGETS.profileReqPerSec} req/s, p95 < ${TARGETS.profileP95Ms} ms`, ok(checks.profileReqPerSec && checks.profileP95)));
  rows.push(loadRow(load.profileSsr, "", ""));
  rows.push(loadRow(load.textSsr, "", ""));
  rows.push(loadRow(load.directoryText, "", ""));
  rows.push(loadRow(load.directoryFilters, "", ""));
  rows.push(loadRow(load.static, "référence", ""));
  if (load.soak) rows.push(loadRow(load.soak, `0 erreur, ${SOAK.connections} conn. × ${SOAK.durationS} s`, ok(failedRequests(load.soak) === 0)));
  rows.push(["Profil (cache chaud) / statique", `${(ssrRatio * 100).toFixed(0)} %`, "", "", "", "", "", "", ""]);
  rows.push(["Profil sans cache (SSR) / statique", `${(ssrNoCacheRatio * 100).toFixed(0)} %`, "", "", "", "", "", `≥ ${TARGETS.profileSsrRatio * 100} %`, ok(checks.profileSsrRatio)]);
  rows.push(["Page sans données (SSR) / statique", `${(textSsrRatio * 100).toFixed(0)} %`, "", "", "", "", "", "plancher du rendu", ""]);
  rows.push(["SQL annuaire filtré (75 + G)", "", ms(directorySql.p50), ms(directorySql.p95), "", "", "", `p95 < ${TARGETS.directorySqlP95Ms} ms`, ok(checks.directorySqlP95)]);
  rows.push(["Mandats potentiels (1 mandat)", "", ms(matching.p50), ms(matching.p95), "", "", "", `p95 < ${TARGETS.matchingP95Ms} ms`, ok(checks.matchingP95)]);
  rows.push(["/annuaire 1re page (compressée)", "", ms(firstPage.totalMs), "", "", String(firstPage.wireBytes), "", "", ""]);
  rows.push(["Liste complète JSON (gzip)", "", ms(wholeList.totalMs), "", "", String(wholeList.gzipBytes), "", "", ""]);
  rows.push(["Octets : liste complète / annuaire", `${bytesRatio.toFixed(0)}×`, "", "", "", "", "", `≥ ${TARGETS.bytesRatio}×`, ok(checks.bytesRatio)]);
  console.log("");
  console.log(
    `Benchmark — ${counts.validated} profils validés, ${counts.activeMandates} mandats actifs, ${database.driver}, ` +
      `${os.cpus().length} cœurs, Node ${process.version}, ${connections} connexions × ${durationS} s`,
  );
  printTable(rows);
  // Errors of every run: none expected, whatever the figures.
  const failing = Object.values(load).filter((r) => failedRequests(r) > 0);
  const totalRequests = Object.values(load).reduce((n, r) => n + r.requests + r.errors, 0);
  console.log(
    failing.length === 0
      ? `\nErreurs : aucune (ni erreur ni réponse non-2xx) sur ${totalRequests} requêtes, toutes mesures.`
      : `\nErreurs : ${failing
          .map((r) => {
            const statuses = Object.entries(r.statusCodes).filter(([code]) => !code.startsWith("2"));
            const kinds = [...Object.entries(r.errorKinds), ...statuses.map(([code, n]) => [`HTTP ${code}`, n] as const)];
            return `${r.path} : ${kinds.map(([k, n]) => `${k} × ${n}`).join(", ")}`;
          })
          .join(" ; ")}`,
  );
  console.log(
    `\nPremière page de l'annuaire : ${kb(firstPage.wireBytes)} (${firstPage.encoding ?? "non compressé"}), ` +
      `premier octet ${ms(firstPage.ttfbMs)}, fin ${ms(firstPage.totalMs)}. ` +
      `Liste complète : ${wholeList.profiles} profils, ${kb(wholeList.jsonBytes)} JSON, ${kb(wholeList.gzipBytes)} gzip, ` +
      `construite en ${ms(wholeList.buildMs)} + lue en ${ms(wholeList.parseMs)} (hors transfert).`,
  );

  const memberRows = member ? memberTable(member) : null;
  if (member && memberRows) {
    const passed = member.rows.filter((r) => memberVerdict(member, r).ok).length;
    console.log(
      `\nPages connectées — ${counts.files} dossiers ; médiane de ${member.options.medianRuns} requêtes successives, ` +
        `puis ${member.options.connections} connexions × ${member.options.durationS} s ; cibles : ${memberTargetsText()} — ${passed}/${member.rows.length} OK ` +
        `(navigations .data : ${member.rows.filter((r) => memberVerdict(member, r).data?.ok).length}/${member.rows.filter((r) => r.data).length}) ; ` +
        `requêtes SQL par page ≤ ${MEMBER_TARGETS.queriesMax} : ${member.rows.filter((r) => memberVerdict(member, r).queriesOk).length}/${member.rows.length}`,
    );
    printTable(memberRows);
  }

  if (mix) printSessionMix(mix, browser, counts, database.driver);
  const flagged = explained.filter((p) => p.statements.some((st) => st.wholeTableScans.length > 0)).length;
  console.log(`\nPlans des requêtes (EXPLAIN) — ${explained.length} pages, ${flagged} lisant une grande table en entier :`);
  printTable(explainRows);

  const results = {
    date: new Date().toISOString(),
    machine: { cpus: os.cpus().length, cpuModel: os.cpus()[0]?.model, node: process.version, platform: `${os.platform()} ${os.release()}` },
    database: { driver: database.driver, validatedProfiles: counts.validated, activeMandates: counts.activeMandates, seedMs: Math.round(seed.elapsedMs) },
    options: { members, mandates: mandateCount, durationS, connections },
    targets: TARGETS,
    load,
    ssrToStaticRatio: ssrRatio,
    ssrNoCacheToStaticRatio: ssrNoCacheRatio,
    directorySql: { ...directorySql, query: "departement=75&secteur=G" },
    matching,
    firstDirectoryResult: { path: "/annuaire", ...firstPage },
    wholeList,
    bytesRatio,
    surnameQuery: { ...surname, path: surnameQuery },
    checks,
    sessions: mix,
    browser,
    explain: explained,
    member: member
      ? {
          options: member.options,
          targets: MEMBER_TARGETS,
          static: { median: member.staticMedian, load: member.staticLoad },
          pages: member.rows.map((r) => ({ tier: r.tier, path: r.page.label, median: r.median, load: r.load, dataMedian: r.data?.median ?? null, dataLoad: r.data?.load ?? null, ...memberVerdict(member, r) })),
        }
      : null,
  };
  mkdirSync("bench", { recursive: true });
  writeFileSync("bench/results.json", `${JSON.stringify(results, null, 2)}\n`);
  step("Résultats écrits dans bench/results.json");

  // docs/quality.md carries the figures of full runs (default size), or of any run with --report.
  if (values.report || (members >= 100_000 && !values["no-report"])) {
    writeQualitySection(
      "bench",
      [
        "## Benchmark (`npm run bench`)",
        "",
        `${runContext()} · ${counts.validated} profils validés, ${counts.activeMandates} mandats actifs, ${database.driver} · ` +
          `${connections} connexions × ${durationS} s par mesure, autocannon sur la boucle locale.`,
        "",
        mdTable(rows[0].map((c) => c || "État"), rows.slice(1)),
        "",
        "Profil « cache chaud » : chaque page demandée une fois avant la mesure (cache des pages publiques anonymes) ; " +
          "« sans cache » : le même rendu serveur à chaque requête. « Page sans données » : /cgu, le même gabarit sans loader propre " +
          "ni requête SQL, rendue à chaque requête : ce que coûte un rendu serveur avant toute donnée (le plancher du rapport " +
          "profil sans cache / statique). Les cibles sont rapportées, jamais vérifiées par les tests.",
      ].join("\n"),
    );
    step("Section « bench » de docs/quality.md mise à jour");
    if (member && memberRows) {
      writeQualitySection(
        "bench-member",
        [
          "## Pages des membres connectés (`npm run bench`)",
          "",
          `${runContext()} · ${counts.validated} profils validés, ${counts.activeMandates} mandats actifs, ${counts.files} dossiers de rapprochement, ${database.driver} · ` +
            `médiane de ${member.options.medianRuns} requêtes successives, puis ${member.options.connections} connexions × ${member.options.durationS} s (autocannon, encodages de Chromium).`,
          "",
          mdTable(memberRows[0].map((c) => c || "État"), memberRows.slice(1)),
          "",
          `Référence : la page /dashboard du membre premium enregistrée et servie comme fichier statique par le même processus. ` +
            "Colonnes « navigation .data » : la requête `.data` que le navigateur envoie pour aller sur la page une fois le premier document chargé ; " +
            "les autres colonnes : la page demandée comme document, rendue par le serveur à chaque requête. " +
            `Cibles : ${memberTargetsText()} ; ` +
            `au plus ${MEMBER_TARGETS.queriesMax} requêtes SQL par page (en-tête X-Query-Count du serveur lancé avec QUERY_STATS, ` +
            "comptées sur la première page d'une session neuve : le cache de garde de l'instance ne la connaît pas encore ; les pages suivantes " +
            "de la même session dans les SESSION_CACHE_TTL_MS en font 2 de moins, comme pendant la mesure de charge ; la cloche du membre, " +
            "déjà lue par ses vues précédentes, est gardée par l'instance (décision 028) : une page en fait 1 de plus quand elle ne l'est pas) " +
            "(rapportées, jamais vérifiées par les tests). Le document est un PDF de 3 pages, filigrané à chaque ouverture. " +
            "Membre « admin » : les onglets de l'administration, pour un administrateur connecté par le formulaire (mot de passe puis code TOTP de " +
            "son application d'authentification, calculé par le bench) ; le bench ajoute à sa base une médiation pour un dossier sur dix et le journal " +
            "d'une équipe (une validation par membre, une ouverture par médiation).",
        ].join("\n"),
      );
      step("Section « bench-member » de docs/quality.md mise à jour");
    }
    writeQualitySection(
      "bench-explain",
      [
        "## Plans des requêtes de chaque page (`npm run bench`)",
        "",
        `${runContext()} · ${counts.validated} profils validés, ${counts.activeMandates} mandats actifs, ${database.driver}. ` +
          "Chaque page mesurée est demandée une fois avec l'en-tête `X-Query-Log: 1` (serveur lancé avec QUERY_LOG) ; " +
          "chacune de ses requêtes SQL est ensuite passée à `EXPLAIN (FORMAT JSON)` avec ses paramètres.",
        "",
        mdTable(explainRows[0].map((c) => c || "État"), explainRows.slice(1)),
        "",
        `Une page ne doit lire en entier (Seq Scan) aucune table de ${(10_000).toLocaleString("fr-FR")} lignes ou plus quand elle n'en montre qu'une page ; ` +
          "le détail (nœuds du plan de chaque requête) est dans bench/results.json, clé `explain`.",
      ].join("\n"),
    );
    step("Section « bench-explain » de docs/quality.md mise à jour");
  }
}

/** The throwaway database, or the one --database-url names (seeded once, kept). */
async function benchDatabase(dataDir: string, forcePglite: boolean, url: string | undefined, keep: boolean): Promise<BenchDatabase> {
  if (url) {
    return { driver: "pg", url, dataDir, description: `PostgreSQL ${new URL(url).host}${new URL(url).pathname} (gardée)`, drop: async () => {}, dropSync: () => {} };
  }
  const created = await createBenchDatabase(dataDir, forcePglite);
  if (!keep || !created.url) return created;
  return { ...created, description: `${created.description} — gardée : --database-url ${created.url}`, drop: async () => {}, dropSync: () => {} };
}

/** Whether a previous run on this database already added the administration's data. */
async function benchAdminDataPresent(): Promise<boolean> {
  const [row] = await queryRows<{ n: number }>(sql`select count(*)::int as n from mediations`);
  return (row?.n ?? 0) > 0;
}

/** The session mix on the running server, beside a static copy of a session member's /dashboard. */
async function sessionSection(members: SessionMember[], durationS: number, step: (line: string) => void): Promise<SessionMixResults> {
  if (!server) throw new Error("Serveur absent.");
  const base = server.baseUrl;
  const first = members[0];
  if (!first) throw new Error("Aucun membre pour le parcours (membre validé, dans un dossier, avec un mandat actif).");
  const { signInCookie } = await import("./bench/member");
  const cookie = await signInCookie(base, first.email);
  const dashboard = await fetch(`${base}/dashboard`, { headers: { cookie, accept: "text/html" } });
  if (dashboard.status !== 200) throw new Error(`/dashboard (parcours) : HTTP ${dashboard.status}`);
  mkdirSync(path.dirname(SESSION_STATIC_FILE), { recursive: true });
  writeFileSync(SESSION_STATIC_FILE, await dashboard.text());
  return measureSessionMix({
    baseUrl: base,
    members,
    routes: readBuildRoutes(),
    durationS,
    limitMs: SESSION_LIMIT_MS,
    staticPath: SESSION_STATIC_PATH,
    pgid: server.child.pid,
    stopped: () => cleaned,
    step,
    runStatic: async (p) => {
      step(`autocannon copie statique de /dashboard (parcours) : 5 s, 10 connexions…`);
      const r = await runLoad({ baseUrl: base, paths: [p], label: "copie statique (parcours)", connections: 10, durationS: 5 });
      return { reqPerSec: r.reqPerSec, p50: r.p50, p95: r.p95 };
    },
  });
}

async function browserSection(step: (line: string) => void, member: SessionMember | undefined): Promise<BrowserResults | null> {
  if (!server) throw new Error("Serveur absent.");
  if (!member) throw new Error("Aucun membre pour la mesure dans Chromium.");
  step("Chromium : clic → nouveau contenu peint, dix navigations de membre…");
  try {
    return await measureBrowserNavigations(server.baseUrl, member);
  } catch (error) {
    // The server-side figures stand without it: the section is reported missing, not the run lost.
    console.error("Mesure dans Chromium impossible :", error);
    return null;
  }
}

function printSessionMix(mix: SessionMixResults, browser: BrowserResults | null, counts: { validated: number; activeMandates: number }, driver: string) {
  const f = (v: number | undefined) => (v === undefined || !Number.isFinite(v) ? "—" : `${v.toFixed(0)} ms`);
  console.log(
    `\nParcours de membres — ${counts.validated} profils validés, ${counts.activeMandates} mandats actifs, ${driver} ; ${mix.members} membres ; ` +
      `copie statique : ${mix.static.reqPerSec.toFixed(0)} req/s (p50 ${f(mix.static.p50)}) ; cible : p95 de chaque étape < ${mix.limitMs} ms`,
  );
  const levels = mix.levels;
  const header = ["Étape", "requête", ...levels.flatMap((l) => [`${l.concurrency}× p50`, "p95"])];
  const rows: string[][] = [header];
  for (const st of mix.steps) rows.push([st.label, st.url.length > 60 ? `${st.url.slice(0, 57)}…` : st.url, ...levels.flatMap((l) => [f(l.steps[st.key]?.p50), f(l.steps[st.key]?.p95)])]);
  rows.push(["parcours/s", "", ...levels.flatMap((l) => [l.sessionsPerSec.toFixed(2), ""])]);
  rows.push(["requêtes/s (% statique)", "", ...levels.flatMap((l) => [l.requestsPerSec.toFixed(0), `${((l.requestsPerSec / mix.static.reqPerSec) * 100).toFixed(0)} %`])]);
  rows.push(["erreurs", "", ...levels.flatMap((l) => [String(l.errors), ""])]);
  rows.push(["RSS max (Mo)", "", ...levels.flatMap((l) => [l.rssMb?.toFixed(0) ?? "?", ""])]);
  printTable(rows);
  const best = mix.best;
  console.log(
    best
      ? `Niveau tenu le plus haut : ${best.concurrency} membres en parallèle, ${best.sessionsPerSec.toFixed(2)} parcours/s, ${best.requestsPerSec.toFixed(0)} req/s = ${((best.requestsPerSec / mix.static.reqPerSec) * 100).toFixed(0)} % du débit de la copie statique.`
      : "Aucun niveau tenu (un p95 ≥ la cible dès 1 membre, ou des erreurs).",
  );
  for (const l of levels) if (l.errors) console.log(`  ${l.concurrency}× : ${Object.entries(l.errorKinds).map(([k, n]) => `${k} × ${n}`).join(", ")}`);
  if (browser) {
    console.log(`\nChromium — clic → nouveau contenu peint (${browser.runs} passages) :`);
    printTable([["Navigation", "p50", "p95"], ...browser.navigations.map((n) => [n.label, f(n.p50), f(n.p95)]), ["toutes", f(browser.all.p50), f(browser.all.p95)]]);
  }
}

function writeSessionResults(mix: SessionMixResults, browser: BrowserResults | null, counts: object) {
  mkdirSync("bench", { recursive: true });
  writeFileSync(
    "bench/sessions-results.json",
    `${JSON.stringify({ date: new Date().toISOString(), machine: { cpus: os.cpus().length, node: process.version, loadavg: os.loadavg() }, counts, sessions: mix, browser }, null, 2)}\n`,
  );
}

/** Builds (unless --no-build finds a build) and starts the production server as the bench runs it. */
async function buildAndStart(noBuild: boolean, step: (line: string) => void, queryLogFile: string): Promise<RunningServer> {
  if (!database) throw new Error("Base absente.");
  if (noBuild && existsSync("build/server.js")) {
    step("Build ignoré (--no-build)");
  } else {
    step("npm run build…");
    const build = spawnSync("npm", ["run", "--silent", "build"], { stdio: ["ignore", "ignore", "inherit"] });
    if (build.status !== 0) throw new Error("npm run build a échoué");
  }
  step("Démarrage du serveur de production…");
  server = await startServer({
    NODE_ENV: "production",
    DATABASE_URL: database.url ?? "",
    DATA_DIR: database.dataDir,
    SMTP_URL: "",
    // The signed-in runs send thousands of requests per member in seconds (document opening,
    // sign-in of each persona): limits are scaled up as the browser suite does.
    RATE_LIMIT_SCALE: "1000",
    QUERY_STATS: "1",
    QUERY_LOG: queryLogFile,
    // The hourly background jobs (the reputation refresh reads every member) start after the
    // measures rather than in the middle of one: the bench measures the pages, not the hour at
    // which a job runs. The refresh's own cost is in docs/decisions/history/bench-issue-17.md.
    JOBS_START_DELAY_MS: String(2 * 60 * 60_000),
    // Node's flags for the server alone (a heap limit under test), not for the load generator.
    ...(process.env.BENCH_SERVER_NODE_OPTIONS ? { NODE_OPTIONS: process.env.BENCH_SERVER_NODE_OPTIONS } : {}),
  }, { port: process.env.BENCH_PORT ? Number(process.env.BENCH_PORT) : undefined });
  step(`Serveur prêt sur ${server.baseUrl}`);
  return server;
}

/** The signed-in table: one row per page and tier, the static copy first. */
function memberTable(member: MemberResults): string[][] {
  const rows: string[][] = [
    ["Page (connecté)", "Membre", "médiane", "req/s", "p95", "× médiane statique", "% débit statique", "erreurs / non-2xx", "requêtes SQL", "",
      "navigation .data : médiane", "req/s", "× méd.", "% débit", ""],
  ];
  const s = member.staticLoad;
  rows.push(["copie statique de /dashboard", "—", ms(member.staticMedian.totalMs), s.reqPerSec.toFixed(0), ms(s.p95), "1,0", "100 %", `${s.errors} / ${s.non2xx}`, "—", "référence", "—", "—", "—", "—", ""]);
  const ratio = (x: number) => x.toFixed(1).replace(".", ",");
  const pct = (x: number) => `${(x * 100).toFixed(0)} %`;
  for (const r of member.rows) {
    const v = memberVerdict(member, r);
    const data = r.data && v.data
      ? [ms(r.data.median.totalMs), r.data.load.reqPerSec.toFixed(0), ratio(v.data.medianRatio), pct(v.data.throughputRatio), ok(v.data.ok)]
      : ["—", "—", "—", "—", ""];
    rows.push([
      r.page.label, r.tier, ms(r.median.totalMs), r.load.reqPerSec.toFixed(0), ms(r.load.p95),
      ratio(v.medianRatio), pct(v.throughputRatio), `${r.load.errors} / ${r.load.non2xx}`,
      r.queries === null ? "?" : `${r.queries}${v.queriesOk ? "" : " (> 6)"}`, ok(v.ok), ...data,
    ]);
  }
  return rows;
}

function printTable(rows: string[][]) {
  const widths = rows[0].map((_, i) => Math.max(...rows.map((r) => r[i].length)));
  for (const [i, r] of rows.entries()) {
    console.log(r.map((c, j) => (j === 0 ? c.padEnd(widths[j]) : c.padStart(widths[j]))).join("  "));
    if (i === 0) console.log(widths.map((w) => "-".repeat(w)).join("  "));
  }
}

main()
  .then(cleanup)
  .catch(async (error: unknown) => {
    console.error(error);
    await cleanup();
    process.exit(1);
  });
