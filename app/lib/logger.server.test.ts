// The values of a failed statement never reach the logs (tests/integration/canary.test.ts proves
// it end to end on both drivers; here, the shapes of errors one by one).
import { DrizzleQueryError } from "drizzle-orm/errors";
import pg from "pg";
import { describe, expect, it } from "vitest";
import { createLogger } from "./logger.server";

const SECRET = "Dupont Industrie, 12 rue Secrète";

function logged(obj: Record<string, unknown>): { line: string; err: Record<string, unknown> } {
  const lines: string[] = [];
  createLogger({ level: "trace", destination: { write: (l: string) => void lines.push(l) } }).error(obj, "failed");
  return { line: lines.join(""), err: (JSON.parse(lines[0]) as { err: Record<string, unknown> }).err };
}

function pgError(message: string, fields: Record<string, string>) {
  return Object.assign(new pg.DatabaseError(message, 0, "error"), { severity: "ERROR", ...fields });
}

describe("logged errors carry no statement values", () => {
  it("drops Drizzle's params, keeps the SQL text and the driver's cause", () => {
    const cause = pgError("simulated storage failure", { code: "P0001", where: `PL/pgSQL function, value ${SECRET}` });
    const error = new DrizzleQueryError('insert into "mandates" ("client_name") values ($1)', [SECRET], cause);
    const { line, err } = logged({ err: error });
    expect(line).not.toContain("Secrète");
    expect(err.type).toBe("DrizzleQueryError");
    expect(err.message).toBe('Failed query: insert into "mandates" ("client_name") values ($1): simulated storage failure');
    expect(err.stack).toContain("caused by: ");
    expect(err.stack).toMatch(/\n\s+at /);
  });

  it("drops pg's detail and masks quoted values in its message, keeps code, table and constraint", () => {
    const error = pgError(`invalid input syntax for type integer: "${SECRET}"`, {
      code: "22P02",
      detail: `Key (client_name)=(${SECRET}) already exists.`,
      table: "mandates",
      constraint: "mandates_client_code_key",
    });
    const { line, err } = logged({ err: error });
    expect(line).not.toContain("Secrète");
    expect(err).toMatchObject({ code: "22P02", table: "mandates", constraint: "mandates_client_code_key" });
    expect(err.message).toBe('invalid input syntax for type integer: "…"');
    expect(err.detail).toBeUndefined();
  });

  it("cleans a database error found as the cause of another error, and a bare error argument", () => {
    const inner = new DrizzleQueryError("update mandates set client_name = $1", [SECRET], pgError("boom", { code: "57014" }));
    const outer = new Error("save failed", { cause: inner });
    expect(logged({ err: outer }).line).not.toContain("Secrète");
    const lines: string[] = [];
    createLogger({ level: "trace", destination: { write: (l: string) => void lines.push(l) } }).error(inner);
    expect(lines.join("")).not.toContain("Secrète");
    expect(lines.join("")).toContain("update mandates set client_name = $1");
  });

  it("leaves other errors as pino logs them", () => {
    const error = Object.assign(new Error("mail transport timed out"), { attempt: 3 });
    const { err } = logged({ err: error });
    expect(err).toMatchObject({ type: "Error", message: "mail transport timed out", attempt: 3 });
  });
});
