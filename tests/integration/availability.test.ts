// Readiness during the shutdown drain, the outage classification of real driver errors, and the
// HTTP mapping of both (app/lib/availability.server.ts). The outage itself, end to end, is
// tests/system/database-outage.test.ts.
import type { AddressInfo } from "node:net";
import express from "express";
import pg from "pg";
import { describe, expect, it } from "vitest";
import { availabilityMiddleware, isDatabaseUnavailable, RETRY_AFTER_SECONDS, startDraining, stopDraining } from "~/lib/availability.server";
import { loader as readyz } from "~/routes/api/readyz";
import { useTestDatabase } from "../support/db";

useTestDatabase();

describe("isDatabaseUnavailable", () => {
  it("recognises a refused connection, through the query error that wraps it", async () => {
    // A port nothing listens on: what the pool reports when PostgreSQL is down.
    const pool = new pg.Pool({ host: "127.0.0.1", port: 1, connectionTimeoutMillis: 2000 });
    const error = await pool.query("select 1").catch((e: unknown) => e);
    await pool.end();
    expect(isDatabaseUnavailable(error)).toBe(true);
    expect(isDatabaseUnavailable(new Error("Failed query: select 1", { cause: error }))).toBe(true);
  });

  it("recognises server-side shutdown, timeout and lost-connection errors", () => {
    expect(isDatabaseUnavailable(Object.assign(new Error("terminating connection due to administrator command"), { code: "57P01" }))).toBe(true);
    expect(isDatabaseUnavailable(Object.assign(new Error("canceling statement due to statement timeout"), { code: "57014" }))).toBe(true);
    expect(isDatabaseUnavailable(new Error("Connection terminated unexpectedly"))).toBe(true);
    expect(isDatabaseUnavailable(new Error("timeout exceeded when trying to connect"))).toBe(true);
  });

  it("leaves bugs and expected responses alone", () => {
    expect(isDatabaseUnavailable(Object.assign(new Error('duplicate key value violates unique constraint "x"'), { code: "23505" }))).toBe(false);
    expect(isDatabaseUnavailable(new TypeError("Cannot read properties of undefined"))).toBe(false);
    expect(isDatabaseUnavailable(new Response(null, { status: 404 }))).toBe(false);
    expect(isDatabaseUnavailable(undefined)).toBe(false);
    const cyclic: { message: string; cause?: unknown } = { message: "x" };
    cyclic.cause = cyclic;
    expect(isDatabaseUnavailable(cyclic)).toBe(false);
  });
});

describe("readiness", () => {
  it("is ready while the database answers, unavailable once the drain starts", async () => {
    stopDraining();
    const ready = await readyz();
    expect(ready.status).toBe(200);
    expect(await ready.json()).toEqual({ status: "ready" });

    startDraining();
    const draining = await readyz();
    expect(draining.status).toBe(503);
    expect(draining.headers.get("retry-after")).toBe(String(RETRY_AFTER_SECONDS));
    expect(await draining.json()).toEqual({ status: "draining" });
    stopDraining();
  });
});

describe("availabilityMiddleware", () => {
  async function withApp(run: (base: string) => Promise<void>) {
    const app = express();
    app.use(availabilityMiddleware);
    app.get("/outage", (_req, res) => {
      // What the app does on a loader meeting an outage: flags the load context, answers 500.
      res.locals.loadContext = { databaseUnavailable: true };
      res.status(500).send("Unexpected Server Error");
    });
    app.get("/bug", (_req, res) => {
      res.locals.loadContext = {};
      res.status(500).send("Unexpected Server Error");
    });
    app.get("/ok", (_req, res) => {
      res.send("ok");
    });
    const server = app.listen(0, "127.0.0.1");
    await new Promise((r) => server.once("listening", r));
    try {
      await run(`http://127.0.0.1:${(server.address() as AddressInfo).port}`);
    } finally {
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
    }
  }

  it("turns an outage's 500 into 503 + Retry-After, and only that one", async () => {
    await withApp(async (base) => {
      const outage = await fetch(`${base}/outage`);
      expect(outage.status).toBe(503);
      expect(outage.headers.get("retry-after")).toBe(String(RETRY_AFTER_SECONDS));
      const bug = await fetch(`${base}/bug`);
      expect(bug.status).toBe(500);
      expect(bug.headers.get("retry-after")).toBeNull();
    });
  });

  it("closes kept-alive connections during the drain", async () => {
    await withApp(async (base) => {
      stopDraining();
      const before = await fetch(`${base}/ok`);
      expect(before.headers.get("connection")).toBe("keep-alive");
      startDraining();
      const during = await fetch(`${base}/ok`);
      expect(during.status).toBe(200);
      expect(during.headers.get("connection")).toBe("close");
      stopDraining();
    });
  });
});
