// Migration 0022 (issue 27 item 1): existing collaboration files get their human reference in
// creation order, per year (Paris time), and the counters continue after them. The back-fill
// statements of the migration file are run again on files whose references were cleared.
import { readFileSync } from "node:fs";
import path from "node:path";
import { sql } from "drizzle-orm";
import { expect, it } from "vitest";
import { queryRows } from "~/db/query.server";
import { openCollaborationFile } from "~/features/collaboration/file-opening.server";
import { createMandate, createMember, seedFactories } from "../support/factories";
import { useTestDatabase } from "../support/db";

const t = useTestDatabase();

it("back-fills references in creation order, per Paris year, and the counters continue after them", async () => {
  seedFactories(2722);
  const db = t.db!;
  const seller = await createMember(db);
  const buyer = await createMember(db);
  const open = async (createdAt: string) => {
    const b = await createMandate(db, buyer.profile.id, { mandateType: "buyer" });
    const s = await createMandate(db, seller.profile.id, { mandateType: "seller" });
    const id = await db.transaction((tx) => openCollaborationFile(tx, b.id, s.id));
    await db.execute(sql`update collaboration_files set created_at = ${createdAt}::timestamptz where id = ${id}::uuid`);
    return id;
  };
  // 31 December 23:30 UTC is already 1 January in Paris.
  const ids = {
    late2025: await open("2025-12-31T23:30:00Z"),
    early2025: await open("2025-03-01T10:00:00Z"),
    second2026: await open("2026-06-01T10:00:00Z"),
    first2026: await open("2026-02-01T10:00:00Z"),
    mid2025: await open("2025-07-14T10:00:00Z"),
  };
  // As before the migration: no reference, no counter.
  await db.execute(sql`alter table collaboration_files drop constraint collaboration_files_reference_key`);
  await db.execute(sql`alter table collaboration_files alter column reference drop not null`);
  await db.execute(sql`update collaboration_files set reference = null`);
  await db.execute(sql`delete from collaboration_file_counters`);

  const statements = readFileSync(path.join(process.cwd(), "drizzle/0022_file_reference.sql"), "utf8").split("--> statement-breakpoint");
  // The first two create the counters table and the column: they exist already.
  for (const statement of statements.slice(2)) await db.execute(sql.raw(statement));

  const rows = await queryRows<{ id: string; reference: string }>(sql`select id, reference from collaboration_files`);
  const referenceOf = (id: string) => rows.find((r) => r.id === id)?.reference;
  expect(referenceOf(ids.early2025)).toBe("DR-2025-0001");
  expect(referenceOf(ids.mid2025)).toBe("DR-2025-0002");
  expect(referenceOf(ids.late2025)).toBe("DR-2026-0001");
  expect(referenceOf(ids.first2026)).toBe("DR-2026-0002");
  expect(referenceOf(ids.second2026)).toBe("DR-2026-0003");
  const counters = await queryRows<{ year: number; last_number: number }>(sql`select year, last_number from collaboration_file_counters order by year`);
  expect(counters.map((c) => [Number(c.year), Number(c.last_number)])).toEqual([
    [2025, 2],
    [2026, 3],
  ]);
  // The column is required and unique again.
  await expect(db.execute(sql`update collaboration_files set reference = null`)).rejects.toThrow();
  await expect(db.execute(sql`update collaboration_files set reference = 'DR-2025-0001' where id = ${ids.mid2025}::uuid`)).rejects.toThrow();
});
