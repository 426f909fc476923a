// Which tables a SQL statement writes, read from its text (the statements the app sends through
// Drizzle): the guard cache, the read-after-write cookie and the totals caches each react to
// writes to their own tables (app/lib/request-scope.server.ts).
//
// Every statement of a request goes through those checks: its text is read once for all of them
// (the last statement's tables are remembered), not once per cache (issue 17: the checks were
// ~1.3 % of a member page's CPU with one scan each).

const WRITE = /\b(?:insert\s+into|update|delete\s+from|truncate(?:\s+table)?)\s+(?:"?public"?\.)?"?([a-z_][a-z0-9_$]*)"?(?=[\s(;,]|$)/gi;
const NONE: ReadonlySet<string> = new Set();

let lastStatement: string | undefined;
let lastTables: ReadonlySet<string> = NONE;

/** The tables a statement inserts into, updates, deletes from or truncates (lower case; a CTE's too). */
export function tablesWritten(statement: string): ReadonlySet<string> {
  if (statement === lastStatement) return lastTables;
  let tables: Set<string> | undefined;
  for (const match of statement.matchAll(WRITE)) (tables ??= new Set()).add(match[1]!.toLowerCase());
  lastStatement = statement;
  lastTables = tables ?? NONE;
  return lastTables;
}

/**
 * A test of whether a statement inserts into, updates, deletes from or truncates one of `tables`
 * (names quoted or not, schema-qualified or not, in a CTE too); `profiles_archive` is not
 * `profiles`.
 */
export function writesTo(tables: readonly string[]): (statement: string) => boolean {
  const names = tables.map((t) => t.toLowerCase());
  return (statement) => {
    const written = tablesWritten(statement);
    return written.size > 0 && names.some((t) => written.has(t));
  };
}
