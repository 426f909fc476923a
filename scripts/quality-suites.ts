// npm run quality:suites
// Runs every test suite with machine-readable reporters and writes the `suites` section of
// docs/quality.md: per suite (Vitest on PGlite, on PostgreSQL, Playwright in Chromium, system
// tests on the production build) the files, tests, passes, failures, skips and duration, then the
// security and reliability suites of issue 8 by file. Uses TEST_DATABASE_URL, or the local
// PostgreSQL server when it answers. Exits 1 when a test failed (the report is written anyway).
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, existsSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { reachableTestDatabase } from "./bench/database";
import { mdTable, runContext, writeQualitySection } from "./quality/report";

type FileResult = { file: string; passed: number; failed: number; skipped: number; durationMs: number };
type SuiteResult = { name: string; short: string; ran: boolean; note?: string; files: FileResult[]; durationMs: number };

const tmp = mkdtempSync(path.join(os.tmpdir(), "rt-quality-"));

function run(command: string, args: string[], env: Record<string, string | undefined> = {}): number {
  console.log(`\n$ ${command} ${args.join(" ")}`);
  const started = Date.now();
  const r = spawnSync(command, args, { stdio: "inherit", env: { ...process.env, ...env } });
  console.log(`  → code ${r.status} en ${((Date.now() - started) / 1000).toFixed(0)} s`);
  return r.status ?? 1;
}

type VitestJson = {
  testResults: Array<{ name: string; startTime: number; endTime: number; assertionResults: Array<{ status: string }> }>;
};

function readVitest(file: string): FileResult[] {
  if (!existsSync(file)) return [];
  const json = JSON.parse(readFileSync(file, "utf8")) as VitestJson;
  return json.testResults.map((r) => ({
    file: path.relative(process.cwd(), r.name),
    passed: r.assertionResults.filter((a) => a.status === "passed").length,
    failed: r.assertionResults.filter((a) => a.status === "failed").length,
    skipped: r.assertionResults.filter((a) => a.status !== "passed" && a.status !== "failed").length,
    durationMs: r.endTime - r.startTime,
  }));
}

type PwSuite = { file?: string; specs?: PwSpec[]; suites?: PwSuite[] };
type PwSpec = { file: string; tests: Array<{ status: string; results: Array<{ duration: number }> }> };

function readPlaywright(file: string): FileResult[] {
  if (!existsSync(file)) return [];
  const json = JSON.parse(readFileSync(file, "utf8")) as { suites: PwSuite[] };
  const byFile = new Map<string, FileResult>();
  const visit = (suite: PwSuite) => {
    for (const spec of suite.specs ?? []) {
      const f = path.join("tests/e2e", spec.file);
      const entry = byFile.get(f) ?? { file: f, passed: 0, failed: 0, skipped: 0, durationMs: 0 };
      for (const t of spec.tests) {
        // expected / flaky count as passed (flaky = passed on retry, reported as such below).
        if (t.status === "expected" || t.status === "flaky") entry.passed++;
        else if (t.status === "skipped") entry.skipped++;
        else entry.failed++;
        entry.durationMs += t.results.reduce((s, r) => s + r.duration, 0);
      }
      byFile.set(f, entry);
    }
    for (const s of suite.suites ?? []) visit(s);
  };
  for (const s of json.suites) visit(s);
  return [...byFile.values()];
}

async function main() {
  const pgUrl = await reachableTestDatabase();
  const suites: SuiteResult[] = [];
  let failed = false;

  const vitestSuite = (name: string, short: string, args: string[], env: Record<string, string | undefined>) => {
    const out = path.join(tmp, `${name.replace(/\W+/g, "-")}.json`);
    const started = Date.now();
    const code = run("npx", ["vitest", "run", ...args, "--reporter=default", "--reporter=json", `--outputFile.json=${out}`], env);
    failed ||= code !== 0;
    suites.push({ name, short, ran: true, files: readVitest(out), durationMs: Date.now() - started });
  };

  vitestSuite("Vitest — unitaires et intégration (PGlite)", "PGlite", ["--project", "pglite*"], { TEST_DATABASE_URL: "" });
  if (pgUrl) {
    vitestSuite("Vitest — intégration (PostgreSQL 15)", "PostgreSQL", ["--project", "postgres*"], { TEST_DATABASE_URL: pgUrl });
  } else {
    suites.push({ name: "Vitest — intégration (PostgreSQL)", short: "PostgreSQL", ran: false, note: "aucun serveur PostgreSQL joignable", files: [], durationMs: 0 });
  }

  const pwOut = path.join(tmp, "playwright.json");
  const started = Date.now();
  const pwCode = run("npx", ["playwright", "test", "--reporter=list,json"], { PLAYWRIGHT_JSON_OUTPUT_NAME: pwOut });
  failed ||= pwCode !== 0;
  suites.push({ name: "Playwright — navigateur (Chromium, build de production)", short: "Playwright", ran: true, files: readPlaywright(pwOut), durationMs: Date.now() - started });

  vitestSuite("Système — serveurs de production réels", "Système", ["--config", "vitest.system.config.ts"], { TEST_DATABASE_URL: pgUrl ?? "" });

  const sum = (files: FileResult[], k: "passed" | "failed" | "skipped") => files.reduce((s, f) => s + f[k], 0);
  const minutes = (ms: number) => `${(ms / 60_000).toFixed(1)} min`;
  const suiteRows = suites.map((s) =>
    s.ran
      ? [s.name, s.files.length, sum(s.files, "passed"), sum(s.files, "failed"), sum(s.files, "skipped"), minutes(s.durationMs)]
      : [s.name, "—", "—", "—", "—", s.note ?? "non exécuté"],
  );

  // The suites of issue 8, by file (a file absent from a run shows "—").
  const named: Array<[string, RegExp]> = [
    ["Matrice d'autorisation (routes × rôles)", /authorization-matrix/],
    ["Canari (réponses, e-mails, journaux)", /canary/],
    ["Entrées hostiles (fast-check)", /bad-input/],
    ["XSS (Chromium)", /xss\.spec/],
    ["Sessions et force brute", /sessions|brute/],
    ["Audit de sécurité : points d'entrée better-auth (liste blanche)", /auth-endpoints/],
    ["Audit de sécurité : cookies d'appareil (verrouillage)", /device-cookies/],
    ["Audit de sécurité : quotas freemium", /freemium-quotas/],
    ["Audit de sécurité : boîte mail locale (réseau)", /mailbox-network|mailbox-routes/],
    ["Fiabilité : base de données coupée", /database-outage|availability/],
    ["Fiabilité : arrêt propre sous charge", /graceful-shutdown/],
    ["Fiabilité : e-mails (SMTP coupé, envoi interrompu)", /mail-reliability|dispatcher/],
    ["Fiabilité : deux instances", /two-instances/],
    ["Fiabilité : sauvegarde et restauration", /backup-restore/],
    ["Fiabilité : réplique en lecture (routage, lecture après écriture, panne)", /read-replica|read-after-write/],
    ["Cache des pages publiques", /page-cache|public-content-notify/],
  ];
  const namedRows = named.map(([label, re]) => {
    const cells = suites
      .filter((s) => s.ran)
      .map((s) => {
        const files = s.files.filter((f) => re.test(f.file));
        if (files.length === 0) return null;
        return `${sum(files, "passed")}/${sum(files, "passed") + sum(files, "failed")}`;
      });
    const where = suites.filter((s) => s.ran).map((s, i) => (cells[i] ? `${s.short} ${cells[i]}` : null)).filter(Boolean);
    return [label, where.length ? where.join(" · ") : "—"];
  });

  const markdown = [
    "## Suites de tests (`npm run quality:suites`)",
    "",
    `${runContext()}${pgUrl ? " · PostgreSQL : oui" : " · PostgreSQL : non"}`,
    "",
    mdTable(["Suite", "Fichiers", "Réussis", "Échecs", "Ignorés", "Durée"], suiteRows),
    "",
    "Suites de sécurité et de fiabilité (tests réussis / exécutés, par suite : PGlite et PostgreSQL pour Vitest, Playwright, Système) :",
    "",
    mdTable(["Vérification", "Résultat"], namedRows),
  ].join("\n");
  writeQualitySection("suites", markdown);
  console.log(`\n${markdown}\n\nSection « suites » de docs/quality.md mise à jour.`);
  process.exit(failed ? 1 : 0);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
