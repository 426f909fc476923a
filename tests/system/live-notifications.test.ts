// Live notifications across instances (issue 15 §3): two production servers on one PostgreSQL.
// A tab's event stream on B hears a notification written by another process, one written by a
// use case on A (a visitor's message) and a "mark all read" done on A (LISTEN/NOTIFY on the shared database); signing out on A ends the stream on B;
// and a server stopping with a stream open closes it at once and exits 0 (graceful shutdown).
import { once } from "node:events";
import { describe, expect, it } from "vitest";
import { postgresUrl } from "./support/database";
import { openStream, signIn, useTwoInstances } from "./support/live-stream";
import { recordReliability } from "./support/report";
import type { RunningServer } from "./support/server";

const CHECK = "2 instances : notification en direct de A vers B";
if (!postgresUrl) {
  recordReliability({ check: CHECK, measured: "non mesuré : TEST_DATABASE_URL absent (il faut PostgreSQL : PGlite n'admet qu'un processus)", status: "SKIP" });
}

describe.skipIf(!postgresUrl)("live notifications on two instances (PostgreSQL only: set TEST_DATABASE_URL)", () => {
  const s = useTwoInstances(11);

  it("brings a notification and a read on A to a stream on B; sign-out on A ends it", async () => {
    const cookie = await signIn(s.a, s.email, s.password);
    const stream = await openStream(s.b, cookie);
    await stream.waitFor(/event: state\ndata: \{"unread":\d+/);
    // Counted where it is held (decision 043): B holds it, A none.
    const liveStreams = async (server: RunningServer) => /^rt_live_streams (\d+)$/m.exec(await (await fetch(`${server.baseUrl}/metrics`)).text())?.[1];
    expect(await liveStreams(s.b)).toBe("1");
    expect(await liveStreams(s.a)).toBe("0");
    const started = Date.now();
    const { sql } = await import("drizzle-orm");
    await s.handle.db.execute(sql`insert into notifications (user_id, kind, title, link)
      select id, 'message', 'Notification de la plateforme A', '/dashboard' from "user" where email = ${s.email}`);
    await stream.waitFor(/Notification de la plateforme A/);
    const latencyMs = Date.now() - started;

    // "Tout marquer comme lu" on A: the count on B drops to 0.
    const read = await fetch(`${s.a.baseUrl}/dashboard/notifications`, {
      method: "POST",
      headers: { cookie, "content-type": "application/x-www-form-urlencoded", origin: s.a.baseUrl },
      body: new URLSearchParams({ intent: "read-all" }),
      redirect: "manual",
    });
    expect(read.status).toBe(200);
    await stream.waitFor(/"unread":0,"items":\[\{[^\]]*"title":"Notification de la plateforme A"[^\]]*"read":true/);

    const logout = await fetch(`${s.a.baseUrl}/logout`, {
      method: "POST",
      headers: { cookie, "content-type": "application/x-www-form-urlencoded", origin: s.a.baseUrl },
      body: "",
      redirect: "manual",
    });
    expect(logout.status).toBe(302);
    await Promise.race([stream.ended, new Promise((_, reject) => setTimeout(() => reject(new Error("stream on B not ended by sign-out on A")), 5000))]);
    await expect.poll(() => liveStreams(s.b)).toBe("0");
    // The browser's reconnection is refused: the session is gone.
    expect((await fetch(`${s.b.baseUrl}/api/notifications/stream`, { headers: { cookie } })).status).toBe(401);

    recordReliability({ check: CHECK, measured: `reçue sur B en ${latencyMs} ms ; lecture sur A reçue ; déconnexion sur A : flux de B fermé`, ok: true });
  });

  it("brings a notification a use case writes on A (a visitor's message) to the member's stream on B", async () => {
    const cookie = await signIn(s.a, s.email, s.password);
    const stream = await openStream(s.b, cookie);
    await stream.waitFor(/event: state\ndata: \{"unread":\d+/);
    // The premium member's public profile, found in A's directory.
    const directory = await (await fetch(`${s.a.baseUrl}/annuaire?q=${encodeURIComponent("Thomas Garnier")}`)).text();
    const slug = /href="\/consultant\/([a-z0-9-]+)"/.exec(directory)?.[1];
    expect(slug, "the premium member in the directory").toBeDefined();
    const subject = `Message écrit sur A ${Date.now()}`;
    const started = Date.now();
    const sent = await fetch(`${s.a.baseUrl}/consultant/${slug}`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", origin: s.a.baseUrl },
      body: new URLSearchParams({ fullName: "Claire Visiteuse", email: "claire.visiteuse@exemple.fr", subject, message: "Bonjour, une reprise à étudier." }),
      redirect: "manual",
    });
    expect(sent.status).toBe(200);
    // The notification's title names the sender, never the body: B's stream shows it with its link.
    await stream.waitFor(/"title":"Nouveau message de Claire Visiteuse"/);
    recordReliability({ check: "2 instances : notification écrite par un cas d’usage sur A, reçue sur B", measured: `reçue sur B en ${Date.now() - started} ms`, ok: true });
    await stream.cancel();
  });

  it("closes open streams when a graceful shutdown starts and exits 0 without waiting for the drain deadline", async () => {
    const cookie = await signIn(s.b, s.email, s.password);
    const stream = await openStream(s.b, cookie);
    await stream.waitFor(/event: state/);
    const exit = once(s.b.child, "exit") as Promise<[number | null, NodeJS.Signals | null]>;
    const signalled = Date.now();
    process.kill(s.b.child.pid!, "SIGTERM");
    await stream.ended;
    expect(await s.b.exited(8000)).toBe(true);
    const [code] = await exit;
    expect(code).toBe(0);
    // The drain deadline is 10 s: an open stream must not hold the shutdown that long.
    expect(Date.now() - signalled).toBeLessThan(8000);
    // Exit status 0: every connection closed before the drain deadline (server.ts), the stream's included.
  });
});
