// Writes to the tables the caches are computed from name that table on 'rt_cache' at commit
// (migrations 0004, 0019–0021, re-pointed by 0027), on both drivers; writes to anything else do not. A collaboration file notifies when it enters or
// leaves the concluded stage (profiles show their closings count, migration 0010), not otherwise.
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, expect, it } from "vitest";
import { createDatabase, migrateDatabase, type Db } from "~/db/client.server";
import type { Listen } from "~/db/listen.server";
import { CACHE_CHANNEL } from "~/lib/cache.server";
import { testDriver } from "../support/db";

let db: Db;
let listen: Listen;
let close: () => Promise<void>;
let cleanup: (() => Promise<void>) | undefined;

beforeAll(async () => {
  if (testDriver === "pg") {
    const { createTestDatabase } = await import("../support/db");
    const t = await createTestDatabase();
    const holder = await createDatabase({ url: t.url!, poolMax: 2 });
    db = holder.db;
    listen = holder.listen!;
    close = async () => {
      await holder.close();
      await t.close();
    };
  } else {
    const holder = await createDatabase({});
    await migrateDatabase(holder.db, holder.driver);
    db = holder.db;
    listen = holder.listen!;
    close = holder.close;
  }
});

afterAll(async () => {
  await cleanup?.();
  await close();
});

it("notifies every listener once per write to profiles or certified deals, at commit", async () => {
  const received: string[] = [];
  let listening = false;
  cleanup = listen(CACHE_CHANNEL, { notify: (p) => received.push(p), state: (up) => (listening = up) });
  for (let i = 0; i < 100 && !listening; i++) await new Promise((r) => setTimeout(r, 20));
  expect(listening).toBe(true);

  const settle = () => new Promise((r) => setTimeout(r, 200));
  await db.execute(sql`update profiles set company = company where false`);
  await settle();
  expect(received).toEqual(["profiles"]);

  await db.execute(sql`update certified_deals set year = year where false`);
  await settle();
  expect(received).toEqual(["profiles", "certified_deals"]);

  // No cache reads them: nothing.
  await db.execute(sql`delete from rate_limit_counters where false`);
  await db.execute(sql`delete from connection_events where false`);
  await settle();
  expect(received).toHaveLength(2);

  // A rolled-back transaction notifies no one.
  await db
    .transaction(async (tx) => {
      await tx.execute(sql`update profiles set company = company where false`);
      throw new Error("rollback");
    })
    .catch(() => {});
  await settle();
  expect(received).toHaveLength(2);

  await cleanup();
  cleanup = undefined;
  expect(listening).toBe(false);
});

it("notifies when a collaboration file concludes, stops being concluded or is deleted concluded — not for its other writes", async () => {
  const received: string[] = [];
  let listening = false;
  cleanup = listen(CACHE_CHANNEL, { notify: (p) => received.push(p), state: (up) => (listening = up) });
  for (let i = 0; i < 100 && !listening; i++) await new Promise((r) => setTimeout(r, 20));
  expect(listening).toBe(true);
  const settle = () => new Promise((r) => setTimeout(r, 200));

  // A file opened, worked on, read: the public pages do not change.
  await db.execute(sql`insert into collaboration_files (reference, pair_key, mandate_a_label, mandate_b_label) values ('DR-2026-9001', 'notify-test', 'A', 'B')`);
  await db.execute(sql`update collaboration_files set stage = 'offer', last_activity_at = now() where pair_key = 'notify-test'`);
  await db.execute(sql`update collaboration_files set member_a_read_at = now() where pair_key = 'notify-test'`);
  await settle();
  expect(received).toEqual([]);

  // Concluded: the closings count of both members' profiles changes.
  await db.execute(sql`update collaboration_files set stage = 'concluded', concluded_at = now() where pair_key = 'notify-test'`);
  await settle();
  expect(received).toEqual(["collaboration_files"]);

  // Later writes to the concluded file (activity, read marks): nothing.
  await db.execute(sql`update collaboration_files set last_activity_at = now() where pair_key = 'notify-test'`);
  await settle();
  expect(received).toHaveLength(1);

  // Deleted while concluded: the count drops.
  await db.execute(sql`delete from collaboration_files where pair_key = 'notify-test'`);
  await settle();
  expect(received).toEqual(["collaboration_files", "collaboration_files"]);

  // A file inserted already concluded (a restore), and an emptied table.
  await db.execute(sql`insert into collaboration_files (reference, pair_key, mandate_a_label, mandate_b_label, stage, concluded_at) values ('DR-2026-9002', 'notify-test-2', 'A', 'B', 'concluded', now())`);
  await settle();
  expect(received).toHaveLength(3);
  await db.execute(sql`truncate collaboration_files cascade`);
  await settle();
  expect(received).toHaveLength(4);

  await cleanup();
  cleanup = undefined;
});

it("notifies 'rt_cache' once per write to recommendations, the journal or the deals, at commit, and not for other tables (migrations 0019, 0020)", async () => {
  const received: string[] = [];
  let listening = false;
  const stop = listen(CACHE_CHANNEL, { notify: (p) => received.push(p), state: (up) => (listening = up) });
  try {
    for (let i = 0; i < 100 && !listening; i++) await new Promise((r) => setTimeout(r, 20));
    expect(listening).toBe(true);
    const settle = () => new Promise((r) => setTimeout(r, 200));
    await db.execute(sql`update recommendations set sponsor_name = sponsor_name where false`);
    await settle();
    expect(received).toEqual(["recommendations"]);
    await db.execute(sql`insert into audit_log (action, target_type) values ('profile.validate', 'profile')`);
    await settle();
    expect(received).toEqual(["recommendations", "audit_log"]);
    await db.execute(sql`update certified_deals set year = year where false`);
    await settle();
    expect(received).toEqual(["recommendations", "audit_log", "certified_deals"]);
    await db.execute(sql`delete from rate_limit_counters where false`);
    await settle();
    expect(received).toEqual(["recommendations", "audit_log", "certified_deals"]);
  } finally {
    await stop();
  }
});

it("notifies 'rt_cache' once per write to mandates, profiles or requests, at commit, and not for other tables (migration 0021)", async () => {
  const received: string[] = [];
  let listening = false;
  const stop = listen(CACHE_CHANNEL, { notify: (p) => received.push(p), state: (up) => (listening = up) });
  try {
    for (let i = 0; i < 100 && !listening; i++) await new Promise((r) => setTimeout(r, 20));
    expect(listening).toBe(true);
    const settle = () => new Promise((r) => setTimeout(r, 200));
    await db.execute(sql`update mandates set description = description where false`);
    await settle();
    expect(received).toEqual(["mandates"]);
    await db.execute(sql`update profiles set company = company where false`);
    await db.execute(sql`delete from mandate_match_requests where false`);
    await settle();
    expect(received).toEqual(["mandates", "profiles", "mandate_match_requests"]);
    // Inside a transaction: at its commit, not before.
    await db.transaction(async (tx) => {
      await tx.execute(sql`update mandates set description = description where false`);
      await settle();
      expect(received).toHaveLength(3);
    });
    await settle();
    expect(received).toEqual(["mandates", "profiles", "mandate_match_requests", "mandates"]);
    await db.execute(sql`delete from connection_events where false`);
    await settle();
    expect(received).toHaveLength(4);
  } finally {
    await stop();
  }
});

it("names the users of a write to the guards' tables, and the member of a new notification, on 'rt_cache' (migration 0027)", async () => {
  const received: string[] = [];
  let listening = false;
  const stop = listen(CACHE_CHANNEL, { notify: (p) => received.push(p), state: (up) => (listening = up) });
  try {
    for (let i = 0; i < 100 && !listening; i++) await new Promise((r) => setTimeout(r, 20));
    expect(listening).toBe(true);
    const settle = () => new Promise((r) => setTimeout(r, 200));
    await db.execute(sql`insert into "user" (id, name, email, email_verified, created_at, updated_at) values ('cache-u1', 'u', 'cache-u1@example.test', true, now(), now())`);
    await db.execute(sql`update "user" set name = 'v' where id = 'cache-u1'`);
    await settle();
    expect(received).toEqual(["user:cache-u1"]);
    await db.execute(sql`insert into notifications (user_id, kind, title) values ('cache-u1', 'match_request', 'x')`);
    await settle();
    expect(received).toEqual(["user:cache-u1", "notifications:cache-u1"]);
    await db.execute(sql`truncate user_roles`);
    await settle();
    expect(received).toEqual(["user:cache-u1", "notifications:cache-u1", "guard"]);
  } finally {
    await stop();
  }
});
