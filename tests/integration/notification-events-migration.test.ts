// Migration 0033 (decision 053): what members had waiting before the to-dos existed becomes their
// open to-dos — a match request to answer, both undertakings of a confirmed connection, a closing
// to confirm — read (not news), and the members who had switched an e-mail off keep it off. The
// migration's data statements are run again on such data.
import { readFileSync } from "node:fs";
import path from "node:path";
import { sql } from "drizzle-orm";
import { expect, it } from "vitest";
import { notifications } from "~/db/schema";
import { getNotificationPreferences } from "~/features/account/account.server";
import { getNotificationState, openTasksPage } from "~/features/notifications/notifications.server";
import { createMandate, createMember, seedFactories } from "../support/factories";
import { useTestDatabase } from "../support/db";
import { openFileBetween } from "./file-helpers";

const t = useTestDatabase();

it("turns pending requests, unsigned undertakings and closings to confirm into read to-dos; keeps e-mails switched off", async () => {
  seedFactories(3133);
  const db = t.db!;
  const paul = await createMember(db, { profile: { membershipType: "premium", notifyMatchAlerts: false } });
  const luc = await createMember(db, { profile: { membershipType: "premium" } });
  // A request to Paul, waiting.
  const lucs = await createMandate(db, luc.profile.id, { mandateType: "seller" });
  const pauls = await createMandate(db, paul.profile.id, { mandateType: "buyer" });
  await db.execute(sql`insert into mandate_match_requests (requester_mandate_id, target_mandate_id, requester_profile_id)
    values (${lucs.id}::uuid, ${pauls.id}::uuid, ${luc.profile.id}::uuid)`);
  // A confirmed connection (both accepted), nobody has signed.
  const { fileId, buyer, seller } = await openFileBetween(db, paul, luc, { buyer: "A SAS", seller: "B SARL" });
  await db.execute(sql`insert into mandate_match_requests (requester_mandate_id, target_mandate_id, requester_profile_id, status) values
    (${buyer}::uuid, ${seller}::uuid, ${paul.profile.id}::uuid, 'accepted'), (${seller}::uuid, ${buyer}::uuid, ${luc.profile.id}::uuid, 'accepted')`);
  // Luc proposed « Conclu » in that file: Paul confirms.
  await db.execute(sql`update collaboration_files set stage = 'offer', closing_proposed_by = ${luc.profile.id}::uuid, closing_proposed_at = now() where id = ${fileId}::uuid`);
  await db.delete(notifications);

  const statements = readFileSync(path.join(process.cwd(), "drizzle/0033_notification_events.sql"), "utf8")
    .split("--> statement-breakpoint")
    .filter((s) => /^\s*(--[^\n]*\n\s*)*INSERT INTO/i.test(s))
    // Migration 0037 renamed the column these statements fill.
    .map((s) => s.replaceAll('"todo"', '"task"'));
  expect(statements).toHaveLength(5);
  for (const statement of statements) await db.execute(sql.raw(statement));

  const kinds = async (userId: string) => (await openTasksPage(userId, null, 1000)).tasks.map((x) => x.key.slice(0, x.key.indexOf(":"))).sort();
  expect(await kinds(paul.user.id)).toEqual(["closing_proposed", "connection_confirmed", "match_request"]);
  expect(await kinds(luc.user.id)).toEqual(["connection_confirmed"]);
  expect((await getNotificationState(paul.user.id, { fresh: true })).unread).toBe(0);
  expect((await getNotificationPreferences({ id: paul.user.id, email: paul.email }))?.preferences.match_alerts).toBe("off");
  expect((await getNotificationPreferences({ id: luc.user.id, email: luc.email }))?.preferences.match_alerts).toBe("daily");
});
