// A browser tab's live notification stream and a sign-in, against a running production server
// (system tests of issues 15 §3 and 26 §2).
import { afterAll, beforeAll, expect } from "vitest";
import { createSystemDatabase, runScript, type SystemDatabase } from "./database";
import { openOutboxDb, type OutboxDb } from "./outbox";
import { startServer, type RunningServer } from "./server";

export type Stream = { text: () => string; waitFor: (needle: RegExp, ms?: number) => Promise<void>; ended: Promise<void>; cancel: () => Promise<void> };

export async function openStream(server: RunningServer, cookie: string): Promise<Stream> {
  const res = await fetch(`${server.baseUrl}/api/notifications/stream`, { headers: { cookie, accept: "text/event-stream", "accept-encoding": "gzip" } });
  expect(res.status).toBe(200);
  expect(res.headers.get("content-type")).toContain("text/event-stream");
  // Not compressed (compression would buffer the stream).
  expect(res.headers.get("content-encoding")).toBeNull();
  const reader = res.body!.getReader();
  const decoder = new TextDecoder();
  let text = "";
  const waiters = new Set<() => void>();
  const ended = (async () => {
    try {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) return;
        text += decoder.decode(value);
        for (const w of waiters) w();
      }
    } catch {
      // cancelled
    }
  })();
  return {
    text: () => text,
    ended,
    cancel: () => reader.cancel().catch(() => {}),
    waitFor: (needle, ms = 5000) =>
      new Promise<void>((resolve, reject) => {
        const check = () => {
          if (needle.test(text)) {
            waiters.delete(check);
            clearTimeout(timer);
            resolve();
          }
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`stream never showed ${needle}; got:\n${text.slice(-500)}`));
        }, ms);
        waiters.add(check);
        check();
      }),
  };
}

export async function signIn(server: RunningServer, email: string, password: string): Promise<string> {
  const res = await fetch(`${server.baseUrl}/auth`, { method: "POST", body: new URLSearchParams({ intent: "sign-in", email, password }), redirect: "manual" });
  expect(res.status).toBe(302);
  return res.headers
    .getSetCookie()
    .map((c) => c.split(";")[0])
    .filter((c) => c.startsWith("rt.session_token="))
    .join("; ");
}

/** Whether the stream ends within `ms`. */
export function endsWithin(stream: Stream, ms: number): Promise<boolean> {
  return Promise.race([stream.ended.then(() => true), new Promise<boolean>((resolve) => setTimeout(() => resolve(false), ms))]);
}

/** A form post to a page, as the browser sends it (same origin). */
export function postForm(server: RunningServer, path: string, cookie: string, fields: Record<string, string>): Promise<Response> {
  return fetch(`${server.baseUrl}${path}`, {
    method: "POST",
    headers: { cookie, "content-type": "application/x-www-form-urlencoded", origin: server.baseUrl },
    body: new URLSearchParams(fields),
    redirect: "manual",
  });
}

/**
 * Two production servers on one seeded PostgreSQL database, for the file's tests: the seed's
 * premium member signs in on them, and `handle` writes beside them.
 */
export function useTwoInstances(seed: number) {
  const instances = {} as { database: SystemDatabase; a: RunningServer; b: RunningServer; handle: OutboxDb; email: string; password: string };
  beforeAll(async () => {
    instances.database = await createSystemDatabase("pg");
    const out = runScript(instances.database, ["scripts/seed.ts", "--members", "6", "--seed", String(seed)]);
    const login = /Membre premium\s+(\S+@\S+)\s+\/\s+(\S+)/.exec(out);
    expect(login, out).not.toBeNull();
    [instances.email, instances.password] = [login![1]!, login![2]!];
    [instances.a, instances.b] = await Promise.all([startServer(instances.database.env, { capture: true }), startServer(instances.database.env, { capture: true })]);
    instances.handle = await openOutboxDb(instances.database);
  });
  afterAll(async () => {
    await Promise.all([instances.a?.stop(), instances.b?.stop()]);
    await instances.handle?.close();
    await instances.database?.drop();
  });
  return instances;
}
