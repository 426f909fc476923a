// The member's collaboration files in "Exporter mes données" (GDPR access and portability): what
// the member sees in each file, as data. Scoped by the member's own profile; the counterpart
// appears as the file shows them (name, company), and with their signatures' IP address and
// browser. The counterpart's client identity is not copied
// from their mandate (the file shows it after the undertaking; it is the counterpart's data); the
// texts the members wrote (messages, document names) are exported as they are.
import { sql } from "drizzle-orm";
import { queryRows } from "~/db/query.server";
import { visibleNetworkEvidence } from "./signer-network";

type FileRow = {
  id: string;
  stage: string;
  side: "a" | "b";
  my_mandate_label: string;
  their_mandate_label: string;
  counterpart_name: string | null;
  counterpart_company: string | null;
  closing_date: string | null;
  amount_band: string | null;
  concluded_at: Date | string | null;
  abandon_reason: string | null;
  abandon_text: string | null;
  abandoned_at: Date | string | null;
  created_at: Date | string;
};

type ExportedSignature = { by_me: boolean; ip_address: string | null; user_agent: string | null } & Record<string, unknown>;

/** Both signers' IP address and browser: the proof both parties agreed. */
function signatureAsSeen(s: ExportedSignature): ExportedSignature {
  const seen = visibleNetworkEvidence("signature", s.by_me ? "self" : "party", { ipAddress: s.ip_address, userAgent: s.user_agent });
  return { ...s, ip_address: seen.ipAddress, user_agent: seen.userAgent };
}

export async function collaborationDataOf(profileId: string) {
  const me = sql`${profileId}::uuid`;
  const files = await queryRows<FileRow>(sql`
    select f.id, f.stage::text as stage, s.side,
      case when s.side = 'a' then f.mandate_a_label else f.mandate_b_label end as my_mandate_label,
      case when s.side = 'a' then f.mandate_b_label else f.mandate_a_label end as their_mandate_label,
      nullif(concat_ws(' ', p.first_name, p.last_name), '') as counterpart_name, p.company as counterpart_company,
      f.closing_date::text as closing_date, f.amount_band::text as amount_band, f.concluded_at,
      f.abandon_reason::text as abandon_reason, f.abandon_text, f.abandoned_at, f.created_at
    from collaboration_files f
    cross join lateral (select case when f.member_a_id = ${me} then 'a' else 'b' end as side) s
    left join profiles p on p.id = case when s.side = 'a' then f.member_b_id else f.member_a_id end
    where f.member_a_id = ${me} or f.member_b_id = ${me}
    order by f.created_at desc`);
  if (files.length === 0) return [];
  const ids = sql.join(
    files.map((f) => sql`${f.id}::uuid`),
    sql`, `,
  );
  const [events, messages, documents, agreements] = await Promise.all([
    queryRows<{ file_id: string; kind: string; by_me: boolean; actor_name: string | null; details: unknown; created_at: Date | string }>(sql`
      select file_id, kind, actor_profile_id = ${me} as by_me, actor_name, details, created_at
      from collaboration_events where file_id in (${ids}) order by created_at, id`),
    queryRows<{ file_id: string; body: string; by_me: boolean; created_at: Date | string }>(sql`
      select file_id, body, coalesce(sender_profile_id = ${me}, false) as by_me, created_at
      from collaboration_messages where file_id in (${ids}) order by created_at, id`),
    // Withdrawn documents of the other member are gone for this member, as in the file.
    queryRows<{ id: string; file_id: string; name: string; content_type: string; size_bytes: number | string; sha256: string; shared_by_me: boolean; withdrawn_at: Date | string | null; created_at: Date | string }>(sql`
      select id, file_id, name, content_type, size_bytes, sha256, coalesce(uploader_profile_id = ${me}, false) as shared_by_me, withdrawn_at, created_at
      from collaboration_documents
      where file_id in (${ids}) and (withdrawn_at is null or uploader_profile_id = ${me})
      order by created_at`),
    queryRows<{ id: string; file_id: string; version: number; status: string; terms: unknown; document_sha256: string; signed_sha256: string | null; signed_at: Date | string | null; cancelled_at: Date | string | null; created_at: Date | string; signatures: unknown }>(sql`
      select a.id, a.file_id, a.version, a.status::text as status, a.terms, a.document_sha256, a.signed_sha256, a.signed_at, a.cancelled_at, a.created_at,
        coalesce((select json_agg(json_build_object('signer_name', s.signer_name, 'by_me', coalesce(s.profile_id = ${me}, false), 'document_sha256', s.document_sha256,
          'method', s.method, 'signed_at', s.signed_at,
          'ip_address', s.ip_address, 'user_agent', s.user_agent) order by s.signed_at)
          from fee_agreement_signatures s where s.agreement_id = a.id), '[]'::json) as signatures
      from fee_agreements a where a.file_id in (${ids}) order by a.version`),
  ]);
  const json = (v: unknown) => (typeof v === "string" ? (JSON.parse(v) as unknown) : v);
  return files.map((f) => ({
    id: f.id,
    stage: f.stage,
    my_mandate: f.my_mandate_label,
    counterpart_mandate: f.their_mandate_label,
    counterpart: { name: f.counterpart_name, company: f.counterpart_company },
    closing: { closing_date: f.closing_date, amount_band: f.amount_band, concluded_at: f.concluded_at },
    abandon: f.abandoned_at ? { reason: f.abandon_reason, text: f.abandon_text, abandoned_at: f.abandoned_at } : null,
    created_at: f.created_at,
    timeline: events.filter((e) => e.file_id === f.id).map(({ file_id: _f, details, ...e }) => ({ ...e, details: json(details) })),
    messages: messages.filter((m) => m.file_id === f.id).map(({ file_id: _f, ...m }) => m),
    documents: documents.filter((d) => d.file_id === f.id).map(({ file_id: _f, size_bytes, ...d }) => ({ ...d, size_bytes: Number(size_bytes) })),
    fee_agreements: agreements
      .filter((a) => a.file_id === f.id)
      .map(({ file_id: _f, terms, signatures, ...a }) => ({ ...a, terms: json(terms), signatures: (json(signatures) as ExportedSignature[]).map(signatureAsSeen) })),
  }));
}
