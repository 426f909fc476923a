// The mail outbox seen from a system test: messages enqueued with the app's own enqueueMail on
// the servers' database, their rows read back, and which server process a dispatcher's claim
// (locked_by = "host:pid") belongs to.
import { readFileSync } from "node:fs";
import { inArray } from "drizzle-orm";
import { createDatabase } from "~/db/client.server";
import { mailOutbox } from "~/db/schema";
import { enqueueMail } from "~/lib/mail/outbox.server";
import type { SystemDatabase } from "./database";
import type { RunningServer } from "./server";

export type OutboxDb = Awaited<ReturnType<typeof createDatabase>>;

/**
 * Opens the servers' database in this process: any time on PostgreSQL; on PGlite only while no
 * server runs (one process at a time).
 */
export function openOutboxDb(database: SystemDatabase): Promise<OutboxDb> {
  return database.driver === "pg" ? createDatabase({ url: database.url, poolMax: 2 }) : createDatabase({ dataDir: database.dataDir });
}

/** Enqueues `count` messages in one transaction (as a feature would); returns their ids. */
export async function enqueueMessages(handle: OutboxDb, count: number, label: string): Promise<number[]> {
  return handle.db.transaction(async (tx) => {
    const ids: number[] = [];
    for (let i = 1; i <= count; i++) {
      const id = await enqueueMail(
        {
          to: `destinataire${i}@reseau.test`,
          subject: `${label} n°${i}`,
          html: `<p>${label} n°${i}</p>`,
          text: `${label} n°${i}`,
          kind: "system-test",
        },
        tx,
      );
      if (id === null) throw new Error("enqueueMail a ignoré un message");
      ids.push(id);
    }
    return ids;
  });
}

export type OutboxRow = { id: number; status: string; attempts: number; lockedBy: string | null };

export async function outboxRows(handle: OutboxDb, ids?: number[]): Promise<OutboxRow[]> {
  const query = handle.db
    .select({ id: mailOutbox.id, status: mailOutbox.status, attempts: mailOutbox.attempts, lockedBy: mailOutbox.lockedBy })
    .from(mailOutbox);
  const rows = ids ? await query.where(inArray(mailOutbox.id, ids)) : await query;
  return rows.sort((a, b) => a.id - b.id);
}

/** The process group of a pid (Linux /proc), or null when the process is gone. */
function processGroupOf(pid: number): number | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    // Fields after "(comm)": state, ppid, pgrp, …
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return Number(fields[2]);
  } catch {
    return null;
  }
}

/** The server whose process group holds the dispatcher named in locked_by ("host:pid"). */
export function serverOfWorker(lockedBy: string | null, servers: RunningServer[]): RunningServer | undefined {
  const pid = Number(lockedBy?.split(":").at(-1));
  if (!Number.isInteger(pid) || pid <= 0) return undefined;
  const group = processGroupOf(pid);
  return servers.find((s) => s.child.pid !== undefined && s.child.pid === group);
}

/** Polls `read` until `done` holds; throws with `describe()` after `timeoutMs`. */
export async function waitFor<T>(read: () => T | Promise<T>, done: (value: T) => boolean, timeoutMs: number, describe: (value: T) => string): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline) throw new Error(`Délai dépassé (${timeoutMs / 1000} s) : ${describe(value)}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** The outbox ids accepted more than once by the sink. */
export function duplicates(counts: Map<number, number>): number[] {
  return [...counts].filter(([, n]) => n > 1).map(([id]) => id);
}
