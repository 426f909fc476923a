// EXPLAIN of every statement a page runs (issue 17: "no page runs a query whose cost grows with
// the whole table when it shows one page of it"). The server, started with QUERY_LOG, appends the
// statements of the requests sent with `X-Query-Log: 1` to a file; once it has stopped, the bench
// reopens the database and asks the planner about each one, with its parameters.
import { existsSync, readFileSync } from "node:fs";
import { sql, type SQL } from "drizzle-orm";
import { queryRows } from "~/db/query.server";

export type LoggedStatement = { label: string; path: string; sql: string; params: unknown[] };

/** The `X-Query-Log` header of a measured page: its label (URI-encoded, headers are Latin-1). */
export const queryLogHeader = (label: string) => ({ "x-query-log": encodeURIComponent(label) });

/** Tables at least this large (pg_class.reltuples) must not be read whole by a page. */
export const LARGE_TABLE_ROWS = 10_000;

export type PlanNode = {
  "Node Type": string;
  "Relation Name"?: string;
  "Index Name"?: string;
  "Plan Rows"?: number;
  "Total Cost"?: number;
  Plans?: PlanNode[];
};

export type ExplainedStatement = {
  index: number;
  summary: string;
  totalCost: number;
  nodes: string[];
  /** Sequential scans of large tables: the statement's cost grows with the whole table. */
  wholeTableScans: Array<{ table: string; rows: number }>;
  error?: string;
};

export type ExplainedPage = { label: string; statements: ExplainedStatement[] };

const LEADING_COMMENTS = /^(\s*\/\*[\s\S]*?\*\/)+/;

/** The statements logged per page label, in order; statements outside SQL's DML (BEGIN, SET…) left out. */
export function readQueryLog(file: string): Map<string, LoggedStatement[]> {
  const byPath = new Map<string, LoggedStatement[]>();
  if (!existsSync(file)) return byPath;
  for (const line of readFileSync(file, "utf8").split("\n")) {
    if (!line.trim()) continue;
    const entry = JSON.parse(line) as LoggedStatement;
    // Leading comments (the reusable-plan mark of decision 026) are not the statement's kind.
    if (!/^\s*(select|with|insert|update|delete)\b/i.test(entry.sql.replace(LEADING_COMMENTS, ""))) continue;
    const label = decodeURIComponent(entry.label);
    const list = byPath.get(label) ?? [];
    list.push({ ...entry, label });
    byPath.set(label, list);
  }
  return byPath;
}

/** The statement as Drizzle SQL, its `$n` placeholders bound to the logged values. */
export function boundStatement(text: string, params: unknown[]): SQL {
  const parts = text.split(/\$(\d+)/);
  const chunks: SQL[] = [sql.raw(parts[0] ?? "")];
  for (let i = 1; i < parts.length; i += 2) {
    const position = Number(parts[i]) - 1;
    chunks.push(sql`${sql.param(params[position] ?? null)}`);
    chunks.push(sql.raw(parts[i + 1] ?? ""));
  }
  return sql.join(chunks, sql.raw(""));
}

/** Node types of a plan, depth first, and the large tables it reads whole. */
export function inspectPlan(plan: PlanNode, tableRows: Map<string, number>) {
  const nodes: string[] = [];
  const wholeTableScans: Array<{ table: string; rows: number }> = [];
  const walk = (node: PlanNode) => {
    const relation = node["Relation Name"];
    nodes.push(relation ? `${node["Node Type"]} ${relation}` : node["Node Type"]);
    if (node["Node Type"] === "Seq Scan" && relation) {
      const rows = tableRows.get(relation) ?? 0;
      if (rows >= LARGE_TABLE_ROWS) wholeTableScans.push({ table: relation, rows });
    }
    for (const child of node.Plans ?? []) walk(child);
  };
  walk(plan);
  return { nodes, wholeTableScans };
}

/** A short label for a statement: its verb and the tables it names. */
export function summarise(text: string): string {
  const verb = (text.replace(LEADING_COMMENTS, "").trim().match(/^(\w+)/)?.[1] ?? "?").toLowerCase();
  const tables = [...new Set([...text.matchAll(/\b(?:from|join|into|update)\s+"?([a-z_]+)"?/gi)].map((m) => m[1]!))];
  return `${verb} ${tables.slice(0, 4).join(", ")}${tables.length > 4 ? "…" : ""}`;
}

/** EXPLAIN (FORMAT JSON) of each logged statement of each page, on the open database. */
export async function explainPages(logged: Map<string, LoggedStatement[]>): Promise<ExplainedPage[]> {
  const sizes = await queryRows<{ relname: string; reltuples: number }>(
    sql`select relname, reltuples::float8 as reltuples from pg_class where relkind = 'r' and relnamespace = 'public'::regnamespace`,
  );
  const tableRows = new Map(sizes.map((r) => [r.relname, Number(r.reltuples)]));
  const pages: ExplainedPage[] = [];
  for (const [label, statements] of logged) {
    const explained: ExplainedStatement[] = [];
    for (const [i, statement] of statements.entries()) {
      const summary = summarise(statement.sql);
      try {
        const rows = await queryRows<{ "QUERY PLAN": unknown }>(sql`explain (format json) ${boundStatement(statement.sql, statement.params)}`);
        const raw = rows[0]?.["QUERY PLAN"];
        const parsed = (typeof raw === "string" ? JSON.parse(raw) : raw) as Array<{ Plan: PlanNode }>;
        const plan = parsed[0]!.Plan;
        explained.push({ index: i + 1, summary, totalCost: plan["Total Cost"] ?? 0, ...inspectPlan(plan, tableRows) });
      } catch (error) {
        explained.push({ index: i + 1, summary, totalCost: 0, nodes: [], wholeTableScans: [], error: (error as Error).message.split("\n")[0] });
      }
    }
    pages.push({ label, statements: explained });
  }
  return pages;
}

/** One row per page: statements, the costliest, and the large tables read whole (none expected). */
export function explainTable(pages: ExplainedPage[]): string[][] {
  const rows: string[][] = [["Page", "requêtes", "coût estimé max", "requête la plus coûteuse", "tables lues en entier (≥ 10 000 lignes)", ""]];
  for (const page of pages) {
    const costliest = [...page.statements].sort((a, b) => b.totalCost - a.totalCost)[0];
    const scans = page.statements.flatMap((s) => s.wholeTableScans.map((w) => `${w.table} (${Math.round(w.rows).toLocaleString("fr-FR")}) dans n° ${s.index}`));
    const errors = page.statements.filter((s) => s.error).length;
    rows.push([
      page.label,
      String(page.statements.length),
      costliest ? costliest.totalCost.toFixed(0) : "—",
      costliest ? `n° ${costliest.index} ${costliest.summary}` : "—",
      scans.length ? scans.join(" ; ") : "aucune",
      errors ? `${errors} non expliquée(s)` : scans.length ? "À REVOIR" : "OK",
    ]);
  }
  return rows;
}
