// Which tables a SQL statement writes, read from its text (the statements the app sends through
// Drizzle): the guard cache, the read-after-write cookie and the back office's totals each react
// to writes to their own tables (app/lib/request-scope.server.ts).

/**
 * A test of whether a statement inserts into, updates, deletes from or truncates one of `tables`
 * (names quoted or not, schema-qualified or not, in a CTE too); `profiles_archive` is not
 * `profiles`.
 */
export function writesTo(tables: readonly string[]): (statement: string) => boolean {
  const pattern = new RegExp(
    `\\b(?:insert\\s+into|update|delete\\s+from|truncate(?:\\s+table)?)\\s+(?:"?public"?\\.)?"?(?:${tables.join("|")})"?(?=[\\s(;,]|$)`,
    "i",
  );
  return (statement) => pattern.test(statement);
}
