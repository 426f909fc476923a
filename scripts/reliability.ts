// npm run reliability -- [--no-build] [--no-soak] [--only a,b] [--soak-duration S] [--connections C] [--members N] [--pglite]
//
// The reliability suite of issue 8, in one run:
// 1. the production build;
// 2. the system tests that report reliability figures (tests/system/*.test.ts calling
//    recordReliability: database outage, graceful shutdown, mail, two instances, backup…), on the
//    PostgreSQL of TEST_DATABASE_URL or the local server when it answers (else the PostgreSQL-only
//    checks are skipped and say so); each test writes its figures to RELIABILITY_REPORT_DIR
//    (tests/system/support/report.ts);
// 3. the soak: a fresh database with N members, the production server, 60 s at 50 connections
//    over /, /annuaire and /consultant/{slug} mixed (autocannon on loopback): 0 errors expected;
// then prints the table and, for a complete run (no --only, no --no-soak), writes the
// `reliability` section of docs/quality.md. Exits 1 when a check missed or a test failed (the
// report is written anyway).
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { closeDatabase, db, initDatabase } from "~/db/client.server";
import { readReliabilityRecords, REPORT_DIR_ENV, type ReliabilityRecord } from "../tests/system/support/report";
import { createBenchDatabase, reachableTestDatabase, type BenchDatabase } from "./bench/database";
import { createCli } from "./cli";
import { pickSlugs } from "./bench/in-process";
import { failedRequests, runLoad, SOAK, soakPaths, stopLoad, type LoadResult } from "./bench/load";
import { startServer, type RunningServer } from "./bench/server";
import { mdTable, runContext, writeQualitySection } from "./quality/report";
import { seedDemoData } from "./seed-lib";

const USAGE =
  "Usage : npm run reliability -- [--no-build] [--no-soak] [--only fichier1,fichier2] [--soak-duration S] [--connections C] [--members N] [--pglite]";
const SYSTEM_DIR = "tests/system";

const cli = createCli(USAGE);

const fr = (n: number, digits = 0) =>
  new Intl.NumberFormat("fr-FR", { maximumFractionDigits: digits, minimumFractionDigits: digits }).format(n).replace(/\u202f|\u00a0/g, " ");

/** The system test files that contribute figures to the reliability report. */
function reliabilityFiles(only: string[]): string[] {
  return readdirSync(SYSTEM_DIR)
    .filter((f) => f.endsWith(".test.ts"))
    .map((f) => path.join(SYSTEM_DIR, f))
    .filter((f) => readFileSync(f, "utf8").includes("recordReliability("))
    .filter((f) => only.length === 0 || only.some((o) => f.includes(o)))
    .sort();
}

type FileOutcome = { file: string; passed: number; failed: number; skipped: number; failures: string[] };

function readVitestJson(file: string): FileOutcome[] {
  if (!existsSync(file)) return [];
  const json = JSON.parse(readFileSync(file, "utf8")) as {
    testResults: Array<{ name: string; message?: string; assertionResults: Array<{ status: string; title: string }> }>;
  };
  return json.testResults.map((r) => ({
    file: path.relative(process.cwd(), r.name),
    passed: r.assertionResults.filter((a) => a.status === "passed").length,
    failed: r.assertionResults.filter((a) => a.status === "failed").length + (r.assertionResults.length === 0 && r.message ? 1 : 0),
    skipped: r.assertionResults.filter((a) => a.status !== "passed" && a.status !== "failed").length,
    failures: [
      ...r.assertionResults.filter((a) => a.status === "failed").map((a) => a.title),
      ...(r.assertionResults.length === 0 && r.message ? [r.message.split("\n")[0]!] : []),
    ],
  }));
}

// Cleanup, whatever the way out.
let server: RunningServer | undefined;
let soakDatabase: BenchDatabase | undefined;
const tmp = mkdtempSync(path.join(os.tmpdir(), "rt-reliability-"));
process.on("exit", () => {
  server?.killSync();
  soakDatabase?.dropSync();
  rmSync(tmp, { recursive: true, force: true });
});
for (const sig of ["SIGINT", "SIGTERM"] as const) {
  process.on(sig, () => {
    console.error(`\n${sig} : arrêt, nettoyage…`);
    stopLoad();
    process.exit(130);
  });
}

async function soak(options: { members: number; durationS: number; connections: number; pglite: boolean; step: (l: string) => void }) {
  const { step } = options;
  soakDatabase = await createBenchDatabase(path.join(tmp, "soak-data"), options.pglite);
  step(`Endurance — base : ${soakDatabase.description}, ${options.members} membres…`);
  await initDatabase({ url: soakDatabase.url, dataDir: soakDatabase.url ? undefined : soakDatabase.dataDir, poolMax: 4 });
  await seedDemoData(db, { members: options.members, mandates: Math.min(options.members, 2000) });
  const profilePaths = (await pickSlugs(200)).map((s) => `/consultant/${s}`);
  await closeDatabase();
  server = await startServer({ NODE_ENV: "production", DATABASE_URL: soakDatabase.url ?? "", DATA_DIR: soakDatabase.dataDir, SMTP_URL: "" });
  step(`Endurance : /, /annuaire, /consultant/{slug} mélangés, ${options.durationS} s à ${options.connections} connexions sur ${server.baseUrl}…`);
  const result = await runLoad({
    baseUrl: server.baseUrl,
    paths: soakPaths(profilePaths),
    label: "soak",
    connections: options.connections,
    durationS: options.durationS,
  });
  await server.stop();
  server = undefined;
  await soakDatabase.drop();
  const driver = soakDatabase.driver;
  soakDatabase = undefined;
  return { result, driver };
}

function soakRecord(r: LoadResult, driver: string, members: number): ReliabilityRecord {
  const failed = failedRequests(r);
  const kinds = [
    ...Object.entries(r.errorKinds),
    ...Object.entries(r.statusCodes)
      .filter(([code]) => !code.startsWith("2"))
      .map(([code, n]) => [`HTTP ${code}`, n] as const),
  ];
  return {
    check: `Charge : ${r.durationS} s à ${r.connections} connexions sur /, /annuaire, /consultant/{slug}`,
    measured:
      `${fr(failed)} erreur sur ${fr(r.requests + r.errors)} requêtes (${fr(r.reqPerSec)} req/s, p95 ${fr(r.p95, 1)} ms` +
      `${kinds.length ? ` ; ${kinds.map(([k, n]) => `${k} × ${n}`).join(", ")}` : ""}) — ${driver}, ${fr(members)} membres`,
    status: failed === 0 && r.requests > 0 ? "OK" : "MISS",
    source: "scripts/reliability.ts",
  };
}

async function main() {
  const values = cli.parse({
    "no-build": { type: "boolean" },
    "no-soak": { type: "boolean" },
    only: { type: "string" },
    "soak-duration": { type: "string" },
    connections: { type: "string" },
    members: { type: "string" },
    pglite: { type: "boolean" },
  });
  if (!values) return;
  const durationS = cli.count("soak-duration", values["soak-duration"], SOAK.durationS, 1);
  const connections = cli.count("connections", values.connections, SOAK.connections, 1);
  const members = cli.count("members", values.members, 2000, 3);
  const only = (cli.string(values.only) ?? "").split(",").map((s) => s.trim()).filter(Boolean);
  const started = performance.now();
  const step = (line: string) => console.log(`[${((performance.now() - started) / 1000).toFixed(0).padStart(4)} s] ${line}`);

  const pgUrl = await reachableTestDatabase();
  step(pgUrl ? `PostgreSQL : ${new URL(pgUrl).host}` : "PostgreSQL injoignable : les vérifications qui l'exigent sont ignorées (SKIP)");

  if (values["no-build"] && existsSync("build/server.js")) {
    step("Build ignoré (--no-build)");
  } else {
    step("npm run build…");
    const build = spawnSync("npm", ["run", "--silent", "build"], { stdio: ["ignore", "ignore", "inherit"] });
    if (build.status !== 0) throw new Error("npm run build a échoué");
  }

  // 1. The system tests that report figures.
  const files = reliabilityFiles(only);
  const recordsDir = path.join(tmp, "records");
  const vitestJson = path.join(tmp, "vitest.json");
  let outcomes: FileOutcome[] = [];
  if (files.length > 0) {
    step(`Tests système : ${files.join(", ")}`);
    spawnSync(
      "npx",
      ["vitest", "run", "--config", "vitest.system.config.ts", ...files, "--reporter=default", "--reporter=json", `--outputFile.json=${vitestJson}`],
      { stdio: "inherit", env: { ...process.env, [REPORT_DIR_ENV]: recordsDir, TEST_DATABASE_URL: pgUrl ?? "" } },
    );
    outcomes = readVitestJson(vitestJson);
  }
  const records = readReliabilityRecords(recordsDir);

  // A file that failed without saying what it measured still shows, as MISS.
  for (const file of files) {
    const outcome = outcomes.find((o) => o.file === file);
    const own = records.filter((r) => r.source === file);
    if (!outcome) {
      records.push({ check: file, measured: "non exécuté (voir la sortie de vitest)", status: "MISS", source: file });
    } else if (outcome.failed > 0 && !own.some((r) => r.status === "MISS")) {
      records.push({
        check: file,
        measured: `${outcome.failed} test(s) en échec : ${outcome.failures.join(" ; ")}`,
        status: "MISS",
        source: file,
      });
    } else if (own.length === 0) {
      records.push({ check: file, measured: `${outcome.passed} test(s) réussi(s), ${outcome.skipped} ignoré(s)`, status: outcome.passed > 0 ? "OK" : "SKIP", source: file });
    }
  }

  // 2. The soak.
  let soakResult: LoadResult | undefined;
  if (!values["no-soak"]) {
    try {
      const { result, driver } = await soak({ members, durationS, connections, pglite: values.pglite === true, step });
      soakResult = result;
      records.push(soakRecord(result, driver, members));
    } catch (error) {
      console.error(error);
      records.push({ check: `Charge : ${durationS} s à ${connections} connexions`, measured: `échec : ${String(error).split("\n")[0]}`, status: "MISS", source: "scripts/reliability.ts" });
    }
  }

  // 3. Report: by file (in file order), then in the order each file wrote them; the soak last.
  const rank = (r: ReliabilityRecord) => {
    const i = files.indexOf(r.source ?? "");
    return i === -1 ? files.length : i;
  };
  records.sort((a, b) => rank(a) - rank(b));
  const rows = records.map((r) => [r.check, r.measured, r.status]);
  console.log("");
  const widths = [0, 1].map((i) => Math.min(90, Math.max(...rows.map((r) => r[i]!.length), 10)));
  for (const r of rows) console.log(`${r[2]!.padEnd(4)}  ${r[0]!.padEnd(widths[0]!)}  ${r[1]}`);
  const missed = records.filter((r) => r.status === "MISS").length;
  const skipped = records.filter((r) => r.status === "SKIP").length;

  const complete = only.length === 0 && !values["no-soak"];
  if (complete) {
    writeQualitySection(
      "reliability",
      [
        "## Fiabilité (`npm run reliability`)",
        "",
        `${runContext()} · ${pgUrl ? "PostgreSQL 15 (serveur local)" : "sans PostgreSQL"} · build de production, serveurs réels sur la boucle locale.`,
        "",
        mdTable(["Vérification", "Mesuré", "État"], rows),
        "",
        "Chaque ligne vient d'un test système (`tests/system/`, qui vérifie aussi le résultat) ou de la mesure d'endurance " +
          "(autocannon). La coupure de la base passe par un proxy TCP entre le serveur et PostgreSQL (connexions coupées, " +
          "nouvelles connexions refusées) : le PostgreSQL partagé n'est jamais arrêté. En mode embarqué (PGlite), la base " +
          "vit dans le processus du serveur et ne peut pas s'arrêter seule : cette vérification ne concerne que PostgreSQL.",
      ].join("\n"),
    );
    step("Section « reliability » de docs/quality.md mise à jour");
  } else {
    step("Exécution partielle (--only, --no-soak) : docs/quality.md n'est pas modifié");
  }
  const failedTests = outcomes.reduce((n, o) => n + o.failed, 0);
  console.log(
    `\n${records.length - missed - skipped} OK, ${missed} MISS, ${skipped} SKIP` +
      (soakResult ? ` · endurance ${fr(soakResult.requests)} réponses` : "") +
      (failedTests ? ` · ${failedTests} test(s) en échec` : ""),
  );
  if (missed > 0 || failedTests > 0) process.exitCode = 1;
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
