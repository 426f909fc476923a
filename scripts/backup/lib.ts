// Pure helpers of scripts/backup-restore.ts: row counts, their comparison and the printed table,
// client/server version checks, connection URLs without their password.

export type TableCount = { table: string; rows: number };

export type CountCheck = { table: string; source: number | null; restored: number | null; ok: boolean };

/** Every table of the database except PostgreSQL's own, as "schema"."name" ready for SQL. */
export const LIST_TABLES_SQL = `
  select table_schema as schema, table_name as name
  from information_schema.tables
  where table_type = 'BASE TABLE'
    and table_schema not in ('pg_catalog', 'information_schema')
    and table_schema not like 'pg\\_%'
  order by table_schema, table_name`;

export function quoteIdent(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}

/** "public.user" for public tables, "schema.name" otherwise. */
export function tableLabel(schema: string, name: string): string {
  return schema === "public" ? name : `${schema}.${name}`;
}

export function countSql(schema: string, name: string): string {
  return `select count(*)::bigint as n from ${quoteIdent(schema)}.${quoteIdent(name)}`;
}

/** Table by table, the counts of the source and of the restored copy; a table missing on either side fails. */
export function compareCounts(source: TableCount[], restored: TableCount[]): CountCheck[] {
  const before = new Map(source.map((t) => [t.table, t.rows]));
  const after = new Map(restored.map((t) => [t.table, t.rows]));
  const tables = [...new Set([...before.keys(), ...after.keys()])].sort();
  return tables.map((table) => {
    const s = before.get(table) ?? null;
    const r = after.get(table) ?? null;
    return { table, source: s, restored: r, ok: s !== null && r !== null && s === r };
  });
}

const fmt = (n: number | null) => (n === null ? "absente" : new Intl.NumberFormat("fr-FR").format(n).replace(/\u202f|\u00a0/g, " "));

/** A plain-text table for the terminal. */
export function formatChecks(checks: CountCheck[]): string {
  const rows = checks.map((c) => [c.table, fmt(c.source), fmt(c.restored), c.ok ? "OK" : "DIFFÉRENT"]);
  const header = ["Table", "Source", "Restaurée", "État"];
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]) =>
    cells
      .map((c, i) => (i === 1 || i === 2 ? c.padStart(widths[i]!) : c.padEnd(widths[i]!)))
      .join("  ")
      .trimEnd();
  return [line(header), widths.map((w) => "-".repeat(w)).join("  "), ...rows.map(line)].join("\n");
}

/** Major version from `pg_dump --version` ("pg_dump (PostgreSQL) 15.20 (Debian …)") or server_version_num (150020). */
export function majorOf(version: string): number | null {
  const trimmed = version.trim();
  if (/^\d{5,6}$/.test(trimmed)) return Math.floor(Number(trimmed) / 10_000);
  const m = /\(PostgreSQL\)\s+(\d+)/.exec(trimmed) ?? /^(\d+)(?:\.\d+)*/.exec(trimmed);
  return m ? Number(m[1]) : null;
}

/**
 * pg_dump refuses a server newer than itself, and an archive is best restored by the same major
 * version: the tools must be at least the server's version. Null when they fit, else a French
 * explanation.
 */
export function versionProblem(tool: string, toolMajor: number | null, serverMajor: number | null): string | null {
  if (toolMajor === null || serverMajor === null) return `version de ${tool} ou du serveur illisible`;
  if (toolMajor < serverMajor) {
    return `${tool} ${toolMajor} est plus ancien que le serveur PostgreSQL ${serverMajor} : installez le client PostgreSQL ${serverMajor} (paquet postgresql-client-${serverMajor})`;
  }
  return null;
}

/** The URL without its password (for the command line, where `ps` shows it) and the password apart (PGPASSWORD). */
export function splitPassword(url: string): { url: string; password: string | undefined } {
  const u = new URL(url);
  const password = u.password ? decodeURIComponent(u.password) : undefined;
  u.password = "";
  return { url: u.toString(), password };
}

/** The same server's URL for another database. */
export function withDatabase(url: string, database: string): string {
  const u = new URL(url);
  u.pathname = `/${encodeURIComponent(database)}`;
  return u.toString();
}

export function databaseName(url: string): string {
  return decodeURIComponent(new URL(url).pathname.replace(/^\//, "")) || "postgres";
}
