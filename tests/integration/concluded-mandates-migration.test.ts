// Migration 0026 (issue 27 §6, decision 046): the mandates of files concluded before the rule
// "a concluded file concludes both its mandates" are concluded, with the file's timeline event;
// the mandates of files still under way, and those already concluded, are left alone. The
// migration file's statement is run again on such data.
import { readFileSync } from "node:fs";
import path from "node:path";
import { sql } from "drizzle-orm";
import { expect, it } from "vitest";
import { queryRows } from "~/db/query.server";
import { openCollaborationFile } from "~/features/collaboration/file-opening.server";
import { createMandate, createMember, seedFactories } from "../support/factories";
import { useTestDatabase } from "../support/db";

const t = useTestDatabase();

it("concludes the mandates of concluded files, each with one timeline event, and nothing else", async () => {
  seedFactories(4626);
  const db = t.db!;
  const seller = await createMember(db);
  const buyer = await createMember(db);
  const open = async (stage: "concluded" | "offer", statuses: { buyer: string; seller: string }) => {
    const b = await createMandate(db, buyer.profile.id, { mandateType: "buyer" });
    const s = await createMandate(db, seller.profile.id, { mandateType: "seller" });
    const id = await db.transaction((tx) => openCollaborationFile(tx, b.id, s.id));
    await db.execute(sql`update collaboration_files set stage = ${stage}::collaboration_stage,
      concluded_at = ${stage === "concluded" ? sql`now()` : sql`null`} where id = ${id}::uuid`);
    await db.execute(sql`update mandates set status = ${statuses.buyer}::mandate_status where id = ${b.id}::uuid`);
    await db.execute(sql`update mandates set status = ${statuses.seller}::mandate_status where id = ${s.id}::uuid`);
    return { id, buyer: b.id, seller: s.id };
  };
  // As before the rule: a concluded file whose buyer kept searching, one whose both mandates
  // concluded already, and a file under way.
  const stale = await open("concluded", { buyer: "active", seller: "concluded" });
  const onHold = await open("concluded", { buyer: "on_hold", seller: "negotiating" });
  const done = await open("concluded", { buyer: "concluded", seller: "concluded" });
  const underWay = await open("offer", { buyer: "active", seller: "negotiating" });

  await db.execute(sql.raw(readFileSync(path.join(process.cwd(), "drizzle/0026_mandates_of_concluded_files.sql"), "utf8")));

  const statuses = new Map(
    (await queryRows<{ id: string; status: string }>(sql`select id, status::text as status from mandates`)).map((r) => [r.id, r.status]),
  );
  expect([stale.buyer, stale.seller, onHold.buyer, onHold.seller, done.buyer, done.seller].map((id) => statuses.get(id))).toEqual(
    Array(6).fill("concluded"),
  );
  expect([statuses.get(underWay.buyer), statuses.get(underWay.seller)]).toEqual(["active", "negotiating"]);
  const events = await queryRows<{ file_id: string; n: number | string }>(
    sql`select file_id, count(*) as n from collaboration_events where kind = 'mandate_concluded' group by file_id`,
  );
  const eventsOf = (id: string) => Number(events.find((e) => e.file_id === id)?.n ?? 0);
  expect([eventsOf(stale.id), eventsOf(onHold.id), eventsOf(done.id), eventsOf(underWay.id)]).toEqual([1, 2, 0, 0]);
});
