// Writes to what the public pages show notify 'rt_public_content' at commit (migration 0004), on
// both drivers; writes to anything else do not.
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, expect, it } from "vitest";
import { createDatabase, migrateDatabase, type Db } from "~/db/client.server";
import type { Listen } from "~/db/listen.server";
import { PUBLIC_CONTENT_CHANNEL } from "~/lib/page-cache.server";
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
  cleanup = listen(PUBLIC_CONTENT_CHANNEL, { notify: (p) => received.push(p), state: (up) => (listening = up) });
  for (let i = 0; i < 100 && !listening; i++) await new Promise((r) => setTimeout(r, 20));
  expect(listening).toBe(true);

  const settle = () => new Promise((r) => setTimeout(r, 200));
  await db.execute(sql`update profiles set company = company where false`);
  await settle();
  expect(received).toEqual(["profiles"]);

  await db.execute(sql`update certified_deals set year = year where false`);
  await settle();
  expect(received).toEqual(["profiles", "certified_deals"]);

  // Not public: nothing.
  await db.execute(sql`delete from rate_limit_counters where false`);
  await db.execute(sql`update mandates set updated_at = updated_at where false`);
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
