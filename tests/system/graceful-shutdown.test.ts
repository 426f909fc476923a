// SIGTERM under load: every request the server had started is answered (2xx), nothing is logged
// as an error (no loader meeting a closed database), the process exits 0 before its deadline.
// Connections opened after the listener closed are refused at TCP level (ECONNREFUSED), which a
// load balancer handles; they are counted apart, never as failures.
import { once } from "node:events";
import { afterAll, beforeAll, expect, it } from "vitest";
import { createSystemDatabase, runScript, type SystemDatabase } from "./support/database";
import { startHttpLoad } from "./support/http-load";
import { formatCount, recordReliability } from "./support/report";
import { startServer, type RunningServer } from "./support/server";

/** server.ts: DRAIN_MS, plus the 5 s it allows for closing the jobs and the database. */
const EXIT_DEADLINE_MS = 15_000;
const CONNECTIONS = 20;

let database: SystemDatabase;
let server: RunningServer | undefined;
let paths: string[];

beforeAll(async () => {
  database = await createSystemDatabase();
  runScript(database, ["scripts/seed.ts", "--members", "12", "--seed", "7"]);
  server = await startServer(database.env, { capture: true, logLevel: "info" });
  const directory = await (await fetch(`${server.baseUrl}/annuaire`)).text();
  const slugs = [...directory.matchAll(/href="\/consultant\/([a-z0-9-]+)"/g)].map((m) => m[1]!);
  expect(slugs.length).toBeGreaterThan(0);
  paths = ["/", "/annuaire", "/annuaire?q=a", ...slugs.slice(0, 5).map((s) => `/consultant/${s}`)];
});

afterAll(async () => {
  await server?.stop();
  await database?.drop();
});

it("finishes in-flight requests on SIGTERM under load, then exits 0", async () => {
  const running = server!;
  const load = startHttpLoad({ baseUrl: running.baseUrl, paths, connections: CONNECTIONS, headers: { "accept-encoding": "gzip" } });

  // Under load for a moment, then the signal; the load goes on until the process is gone.
  await new Promise((r) => setTimeout(r, 3000));
  const exit = once(running.child, "exit") as Promise<[number | null, NodeJS.Signals | null]>;
  load.mark();
  // To the main process only, as a process manager does: npm passes it on to the server (`exec
  // node build/server.js` in the serve script: one process, no relay), and its exit status is the
  // server's. Under `tsx server.ts` the tsx wrapper waited 30 ms for the busy server to
  // acknowledge the signal, then killed it (exit 143): the server runs in node itself.
  process.kill(running.child.pid!, "SIGTERM");
  const gone = await running.exited(EXIT_DEADLINE_MS);
  const stats = await load.stop();
  const [exitCode] = gone ? await exit : [null];
  server = undefined;

  const failed = Object.values(stats.failed).reduce((a, b) => a + b, 0) + Object.values(stats.non2xx).reduce((a, b) => a + b, 0);
  const output = running.output();
  const errorLines = output
    .split("\n")
    .filter((l) => l.startsWith("{"))
    .filter((l) => {
      try {
        return ((JSON.parse(l) as { level?: number }).level ?? 0) >= 50;
      } catch {
        return false;
      }
    });

  recordReliability({
    check: "Arrêt propre (SIGTERM sous charge)",
    measured:
      `${formatCount(failed)} échec sur ${formatCount(stats.started)} requêtes commencées ` +
      `(${CONNECTIONS} connexions ; ${formatCount(stats.answeredAcrossMark)} en cours au signal, toutes terminées), ` +
      `${errorLines.length} ligne d'erreur, code de sortie ${exitCode ?? "—"}`,
    ok: gone && exitCode === 0 && failed === 0 && errorLines.length === 0,
    data: { ...stats, exitCode },
  });

  expect(gone, `the server did not exit within ${EXIT_DEADLINE_MS / 1000} s\n${output.slice(-2000)}`).toBe(true);
  expect(exitCode).toBe(0);
  expect(stats.ok).toBeGreaterThan(0);
  // Requests in flight when the signal came were answered, not cut.
  expect(stats.answeredAcrossMark).toBeGreaterThan(0);
  expect(stats.non2xx, "non-2xx responses").toEqual({});
  expect(stats.failed, "requests started and not answered").toEqual({});
  expect(errorLines, "error log lines").toEqual([]);
  expect(output).not.toContain("Database not initialised");
  expect(output).toContain("shutdown complete");
});
