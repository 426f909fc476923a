import { describe, expect, it } from "vitest";
import { compareCounts, countSql, formatChecks, majorOf, splitPassword, tableLabel, versionProblem, withDatabase } from "./lib";

describe("compareCounts", () => {
  it("passes equal counts and flags a different count or a table missing on either side", () => {
    const checks = compareCounts(
      [
        { table: "user", rows: 3 },
        { table: "profiles", rows: 2 },
        { table: "gone", rows: 1 },
      ],
      [
        { table: "user", rows: 3 },
        { table: "profiles", rows: 1 },
        { table: "extra", rows: 0 },
      ],
    );
    expect(checks).toEqual([
      { table: "extra", source: null, restored: 0, ok: false },
      { table: "gone", source: 1, restored: null, ok: false },
      { table: "profiles", source: 2, restored: 1, ok: false },
      { table: "user", source: 3, restored: 3, ok: true },
    ]);
  });

  it("prints one aligned line per table", () => {
    const text = formatChecks(compareCounts([{ table: "user", rows: 12_345 }], [{ table: "user", rows: 12_345 }]));
    expect(text.split("\n")).toEqual(["Table  Source  Restaurée  État", "-----  ------  ---------  ----", "user   12 345     12 345  OK"]);
    expect(formatChecks(compareCounts([{ table: "a", rows: 1 }], []))).toContain("absente  DIFFÉRENT");
  });
});

describe("versions", () => {
  it("reads the major version of a tool or of server_version_num", () => {
    expect(majorOf("pg_dump (PostgreSQL) 15.20 (Debian 15.20-0+deb12u1)")).toBe(15);
    expect(majorOf("pg_restore (PostgreSQL) 17.2")).toBe(17);
    expect(majorOf("150020")).toBe(15);
    expect(majorOf("90624")).toBe(9);
    expect(majorOf("nonsense")).toBeNull();
  });

  it("refuses a client older than the server", () => {
    expect(versionProblem("pg_dump", 15, 15)).toBeNull();
    expect(versionProblem("pg_dump", 16, 15)).toBeNull();
    expect(versionProblem("pg_dump", 15, 16)).toMatch(/postgresql-client-16/);
    expect(versionProblem("pg_dump", null, 15)).toMatch(/illisible/);
  });
});

describe("connection URLs", () => {
  it("keeps the password off the command line", () => {
    expect(splitPassword("postgres://app:s%40cret@db.example:5432/reseau?sslmode=require")).toEqual({
      url: "postgres://app@db.example:5432/reseau?sslmode=require",
      password: "s@cret",
    });
    expect(splitPassword("postgres://postgres@127.0.0.1:5432/test").password).toBeUndefined();
  });

  it("names another database on the same server", () => {
    expect(withDatabase("postgres://app:pw@db:5432/reseau?sslmode=require", "postgres")).toBe("postgres://app:pw@db:5432/postgres?sslmode=require");
  });

  it("quotes identifiers in the count query", () => {
    expect(tableLabel("public", "user")).toBe("user");
    expect(tableLabel("drizzle", "__drizzle_migrations")).toBe("drizzle.__drizzle_migrations");
    expect(countSql("public", 'we"ird')).toBe('select count(*)::bigint as n from "public"."we""ird"');
  });
});
