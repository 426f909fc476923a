// A large collaboration file, in the bench's database only: 8 participants (one of them a guest
// account, who reaches the file through /dossiers-partages), 500 documents and 300 due-diligence
// requests, on an open file no demo persona is in. Its pages are measured as one of its members.
import { sql } from "drizzle-orm";
import { db } from "~/db/client.server";
import { queryRows } from "~/db/query.server";
import { demoLoginEmail, type DemoLoginKind } from "../seed-lib";

export const LARGE_FILE = { participants: 8, documents: 500, requests: 300 } as const;
const MARK = "bench-intervenant";
export const benchGuestEmail = () => `${MARK}-1@bench.invalid`;

export type LargeFileData = { fileId: string; memberEmail: string; guestEmail: string };

/** Seeds the large file once (a second run on a kept database finds it); null when no open file is left. */
export async function seedLargeFile(personas: readonly DemoLoginKind[] = ["fondateur", "premium", "freemium", "candidat"]): Promise<LargeFileData | null> {
  const [existing] = await queryRows<{ file_id: string; email: string }>(sql`
    select p.file_id, u.email from collaboration_participants p
    join collaboration_files f on f.id = p.file_id join profiles m on m.id = f.member_a_id join "user" u on u.id = m.user_id
    where p.email = ${benchGuestEmail()} limit 1`);
  if (existing) return { fileId: existing.file_id, memberEmail: existing.email, guestEmail: benchGuestEmail() };
  const emails = personas.map((k) => demoLoginEmail(k));
  const [file] = await queryRows<{ id: string; member_a_id: string; member_b_id: string; name: string; email: string }>(sql`
    select f.id, f.member_a_id, f.member_b_id, a.first_name || ' ' || a.last_name as name, u.email
    from collaboration_files f join profiles a on a.id = f.member_a_id join "user" u on u.id = a.user_id
    join profiles b on b.id = f.member_b_id join "user" ub on ub.id = b.user_id
    where f.stage in ('documents', 'exchanges', 'offer', 'protocol')
      and u.email not in (${sql.join(emails.map((e) => sql`${e}`), sql`, `)})
      and ub.email not in (${sql.join(emails.map((e) => sql`${e}`), sql`, `)})
      and a.profile_status = 'validated' and b.profile_status = 'validated'
    order by f.created_at, f.id limit 1`);
  if (!file) return null;
  await db.transaction(async (tx) => {
    // The guest: a user with the demo password (copied from the member's credential account).
    const guestId = `bench-guest-${file.id}`;
    await tx.execute(sql`
      insert into "user" (id, name, email, email_verified, created_at, updated_at)
      values (${guestId}, 'Claire Intervenante', ${benchGuestEmail()}, true, now(), now())`);
    await tx.execute(sql`
      insert into account (id, account_id, provider_id, user_id, password, created_at, updated_at)
      select ${`${guestId}-credential`}, ${guestId}, 'credential', ${guestId}, a.password, now(), now()
      from account a join profiles p on p.user_id = a.user_id where p.id = ${file.member_a_id} and a.provider_id = 'credential'`);
    await tx.execute(sql`insert into guest_accounts (user_id) values (${guestId})`);
    await tx.execute(sql`
      insert into collaboration_participants (file_id, email, role, side, status, token_hash, expires_at, invited_by, invited_by_name,
        user_id, is_guest, first_name, last_name, company, can_view, can_download, can_upload, accepted_at, approved_at, approved_by, undertaking_signed_at, created_at)
      select ${file.id}, ${MARK} || '-' || n || '@bench.invalid',
        (array['expert_comptable', 'avocat', 'notaire', 'banque', 'conseil', 'autre'])[1 + (n - 1) % 6],
        (array['cedant', 'acquereur', 'commun'])[1 + (n - 1) % 3], 'active', md5(${file.id}::text || n), now() + interval '30 days',
        ${file.member_a_id}, ${file.name}, case when n = 1 then ${guestId} else null end, n = 1,
        'Intervenant', 'N° ' || n, 'Cabinet ' || n, true, n % 2 = 0, n % 3 = 0,
        now() - interval '20 days', now() - interval '19 days', ${file.member_a_id}, now() - interval '19 days', now() - (n || ' hours')::interval
      from generate_series(1, ${LARGE_FILE.participants}) n`);
    await tx.execute(sql`
      insert into collaboration_documents (file_id, uploader_profile_id, name, content_type, size_bytes, sha256, storage_key, created_at)
      select ${file.id}, case when n % 2 = 0 then ${file.member_a_id}::uuid else ${file.member_b_id}::uuid end,
        'piece-' || lpad(n::text, 3, '0') || '.pdf', 'application/pdf', 120000 + n, md5(n::text) || md5(n::text), 'bench/absent-' || n,
        now() - (n || ' minutes')::interval
      from generate_series(1, ${LARGE_FILE.documents}) n`);
    await tx.execute(sql`
      insert into due_diligence_requests (file_id, category, title, position, status, owner_profile_id, due_date, created_by, created_at, updated_at)
      select ${file.id}, (array['juridique', 'social', 'fiscal', 'financier', 'immobilier', 'contrats'])[1 + n % 6]::dd_category,
        'Demande ' || n || ' : justificatifs de l''exercice', n,
        (array['requested', 'in_progress', 'provided', 'validated', 'not_applicable'])[1 + n % 5]::dd_status,
        case when n % 2 = 0 then ${file.member_a_id}::uuid else ${file.member_b_id}::uuid end, (current_date + (n % 60))::date,
        ${file.member_a_id}, now() - (n || ' minutes')::interval, now() - (n || ' minutes')::interval
      from generate_series(1, ${LARGE_FILE.requests}) n`);
  });
  return { fileId: file.id, memberEmail: file.email, guestEmail: benchGuestEmail() };
}
