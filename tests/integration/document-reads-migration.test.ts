// Migration 0036 (issue 32, decision 068): every opening the access log kept becomes a read mark of
// `document_reads`, so nothing already opened shows « Nouveau »; what nobody opened stays new. The
// migration's statements are run again, whole, on such data (the owner column and check too).
import { readFileSync } from "node:fs";
import path from "node:path";
import { sql } from "drizzle-orm";
import { expect, it } from "vitest";
import { queryRows } from "~/db/query.server";
import { createMember, seedFactories } from "../support/factories";
import { useTestDatabase } from "../support/db";
import { openFileBetween } from "./file-helpers";

const t = useTestDatabase();

it("marks read what a member opened (once, however many openings), nothing else", async () => {
  seedFactories(3601);
  const db = t.db!;
  const paul = await createMember(db, { profile: { membershipType: "premium" } });
  const luc = await createMember(db, { profile: { membershipType: "premium" } });
  const { fileId } = await openFileBetween(db, paul, luc, { buyer: "A SAS", seller: "B SARL" });
  const [opened, untouched] = await queryRows<{ id: string }>(sql`
    insert into collaboration_documents (file_id, uploader_profile_id, name, content_type, size_bytes, sha256, storage_key)
    values (${fileId}::uuid, ${luc.profile.id}::uuid, 'ouvert.pdf', 'application/pdf', 10, ${"a".repeat(64)}, 'k/1'),
      (${fileId}::uuid, ${luc.profile.id}::uuid, 'jamais.pdf', 'application/pdf', 10, ${"b".repeat(64)}, 'k/2') returning id`);
  await db.execute(sql`insert into document_access_log (document_id, viewer_profile_id, viewer_name, action) values
    (${opened!.id}::uuid, ${paul.profile.id}::uuid, 'Paul', 'view'), (${opened!.id}::uuid, ${paul.profile.id}::uuid, 'Paul', 'download')`);

  // The tables as the previous release had them, then the migration, whole.
  await db.execute(sql`drop table document_reads`);
  await db.execute(sql`alter table due_diligence_requests drop column owner_participant_id`);
  const statements = readFileSync(path.join(process.cwd(), "drizzle/0036_document_reads_and_participant_owners.sql"), "utf8").split("--> statement-breakpoint");
  for (const statement of statements) await db.execute(sql.raw(statement));

  const rows = await queryRows<{ user_id: string; document_id: string }>(sql`select user_id, document_id from document_reads`);
  expect(rows).toEqual([{ user_id: paul.user.id, document_id: opened!.id }]);
  expect(rows.some((r) => r.document_id === untouched!.id)).toBe(false);
  // At most one owner: a founder or a participant.
  await expect(
    db.execute(sql`insert into due_diligence_requests (file_id, category, title, position, owner_profile_id, owner_participant_id)
      values (${fileId}::uuid, 'social', 'x', 1, ${paul.profile.id}::uuid, gen_random_uuid())`),
  ).rejects.toSatisfy((e: unknown) => /one_owner/.test(`${(e as Error).message} ${((e as { cause?: Error }).cause ?? {}).message ?? ""}`));
});
