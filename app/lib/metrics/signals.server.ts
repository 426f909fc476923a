// What the app reports to the metrics as plain data (no prom-client here): the statements' timings
// and the background jobs' runs. Kept on globalThis: server.ts loads the sources while the app's
// copy is bundled in build/server, and /metrics must see what both report.

/** One statement, timed around the driver's `query` (app/db/client.server.ts). */
export type StatementEvent = { pool: "primary" | "read"; startMs: number; seconds: number; failed: boolean };
export type StatementObserver = (event: StatementEvent) => void;

export type JobStatus = { intervalSeconds?: number; lastSuccessSeconds?: number; lastFailureSeconds?: number; successes: number; failures: number };

type Signals = { statementObservers: StatementObserver[]; jobs: Map<string, JobStatus> };
const g = globalThis as unknown as { __rtMetricSignals?: Signals };
const signals: Signals = (g.__rtMetricSignals ??= { statementObservers: [] as StatementObserver[], jobs: new Map<string, JobStatus>() });

/** The observers of every statement; empty (and nothing timed) while metrics are not installed. */
export function statementObservers(): readonly StatementObserver[] {
  return signals.statementObservers;
}

/** Adds an observer of every statement; returns its removal. */
export function observeStatements(observer: StatementObserver): () => void {
  signals.statementObservers.push(observer);
  return () => {
    const at = signals.statementObservers.indexOf(observer);
    if (at >= 0) signals.statementObservers.splice(at, 1);
  };
}

/** A background job exists (its gauges show 0 until its first success). */
export function registerJob(name: string, intervalMs?: number): void {
  const status = signals.jobs.get(name) ?? { successes: 0, failures: 0 };
  if (intervalMs !== undefined) status.intervalSeconds = intervalMs / 1000;
  signals.jobs.set(name, status);
}

/** One run of a background job ended, well or not. */
export function recordJobRun(name: string, ok: boolean, at = Date.now()): void {
  const status = signals.jobs.get(name) ?? { successes: 0, failures: 0 };
  if (ok) {
    status.successes += 1;
    status.lastSuccessSeconds = at / 1000;
  } else {
    status.failures += 1;
    status.lastFailureSeconds = at / 1000;
  }
  signals.jobs.set(name, status);
}

export function jobStatuses(): ReadonlyMap<string, JobStatus> {
  return signals.jobs;
}
