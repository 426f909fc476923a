// Figures measured by the system tests, for the reliability section of docs/quality.md.
//
// A test calls recordReliability({ check, measured, ok }) once it has measured something; when
// RELIABILITY_REPORT_DIR is set (by `npm run reliability`, scripts/reliability.ts) each record is
// written there as one JSON file, else nothing happens (plain `npm test`). Tests keep asserting
// as usual: a record is the figure, the assertion is the verdict. The script lists a test file
// that failed without a record as MISS.
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";

export const REPORT_DIR_ENV = "RELIABILITY_REPORT_DIR";

export type ReliabilityStatus = "OK" | "MISS" | "SKIP";

export type ReliabilityRecord = {
  /** What was checked, in French, as it appears in the table ("Base de données coupée → 503"). */
  check: string;
  /** What was measured ("503 + Retry-After après 0,2 s", "0 échec sur 1 234 requêtes"). */
  measured: string;
  /** OK / MISS against the target; SKIP when it could not run (say why in `measured`). */
  status: ReliabilityStatus;
  /** Test file that measured it (set by recordReliability from the caller's file when omitted). */
  source?: string;
  /** Raw figures, kept in the JSON for whoever wants more than the table. */
  data?: Record<string, unknown>;
  /** Set by recordReliability: order of the rows. */
  at?: string;
};

let sequence = 0;

function slug(text: string): string {
  return (
    text
      .normalize("NFD")
      .replace(/[\u0300-\u036f]/g, "")
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, "-")
      .replace(/^-|-$/g, "")
      .slice(0, 80) || "check"
  );
}

/** Writes one record (no-op without RELIABILITY_REPORT_DIR). The same `check` overwrites itself. */
export function recordReliability(record: Omit<ReliabilityRecord, "at" | "status"> & { status?: ReliabilityStatus; ok?: boolean }): void {
  const dir = process.env[REPORT_DIR_ENV];
  if (!dir) return;
  const { ok, ...rest } = record;
  const status: ReliabilityStatus = record.status ?? (ok === undefined ? "OK" : ok ? "OK" : "MISS");
  const source = record.source ?? callerFile();
  const full: ReliabilityRecord = { ...rest, status, source, at: `${new Date().toISOString()}#${String(sequence++).padStart(4, "0")}` };
  mkdirSync(dir, { recursive: true });
  writeFileSync(path.join(dir, `${slug(source ?? "")}--${slug(record.check)}.json`), `${JSON.stringify(full, null, 2)}\n`);
}

/** Every record of a directory, in the order they were written. */
export function readReliabilityRecords(dir: string): ReliabilityRecord[] {
  let names: string[];
  try {
    names = readdirSync(dir).filter((n) => n.endsWith(".json"));
  } catch {
    return [];
  }
  const records = names.map((n) => JSON.parse(readFileSync(path.join(dir, n), "utf8")) as ReliabilityRecord);
  return records.sort((a, b) => (a.at ?? "").localeCompare(b.at ?? ""));
}

/** French number formatting for the table: 1 234, 1,2 s. */
export function formatCount(n: number): string {
  return new Intl.NumberFormat("fr-FR").format(n).replace(/\u202f|\u00a0/g, " ");
}

export function formatSeconds(ms: number): string {
  return `${new Intl.NumberFormat("fr-FR", { minimumFractionDigits: 1, maximumFractionDigits: 1 }).format(ms / 1000)} s`;
}

/** The test file that called recordReliability, relative to the project (from the stack). */
function callerFile(): string | undefined {
  const stack = new Error().stack ?? "";
  for (const line of stack.split("\n").slice(1)) {
    const m = /(?:file:\/\/)?(\/[^\s):]+\.test\.ts)/.exec(line);
    if (m) return path.relative(process.cwd(), m[1]!);
  }
  return undefined;
}
