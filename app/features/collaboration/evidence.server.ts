// The evidence export of a collaboration file: its whole timeline (stages,
// undertakings and identity reveal, documents shared, viewed and withdrawn, agreement versions
// and signatures) as a dated PDF, with its SHA-256 returned to the member and recorded in the
// timeline. Only the file's two members export it (404 for anyone else), and the client identity
// appears only as getFileView reveals it to the member exporting.
import { createHash } from "node:crypto";
import { sql } from "drizzle-orm";
import { db } from "~/db/client.server";
import { queryRows } from "~/db/query.server";
import { professionLabel } from "~/db/reference/professions";
import { formatDatePattern } from "~/lib/format";
import { consumeRateLimit, type RateLimitRule } from "~/lib/rate-limit.server";
import { AGREEMENT_MESSAGES, SIGNATURE_METHOD_LABELS, type PdfBlock } from "./agreement-rules";
import { GONE_MEMBER_NAME } from "./member-names";
import { getFileView } from "./file-view.server";
import { contentDisposition, DOCUMENT_TYPE_LABELS, formatFileSize, type DocumentType } from "./documents-rules";
import { DOCUMENT_FORMATS } from "~/lib/storage/upload-rules";
import { actorName, appendFileEvent, fileConflict, requireFileAccess, withFile, type FileActor } from "./file-access.server";
import { textPdfDocument } from "~/lib/pdf/text-pdf.server";
import { sealOrRefuse } from "./seal-or-refuse.server";
import { visibleNetworkEvidence } from "./signer-network";

// Making a PDF costs CPU: plenty for a person, a wall for a script.
const EXPORT_RATE: RateLimitRule = { limit: 30, windowSeconds: 60 * 60 };

const at = (v: Date | string) => `${formatDatePattern(v, "dd/MM/yyyy 'à' HH:mm")} (${new Date(v).toISOString()})`;
const TYPE_BY_CONTENT_TYPE = new Map(Object.entries(DOCUMENT_FORMATS).map(([type, f]) => [f.contentType, type as DocumentType]));

export type EvidenceExport = { bytes: Uint8Array; sha256: string; fileName: string; disposition: string; exportedAt: Date };

/** The file's record as a PDF for one of its two members; the export itself joins the timeline. */
export async function exportEvidence(actor: FileActor, fileId: string, now: Date = new Date()): Promise<EvidenceExport> {
  const access = await requireFileAccess(db, actor, fileId);
  const rate = await consumeRateLimit(`evidence-export:${actor.profileId}`, EXPORT_RATE);
  if (!rate.allowed) fileConflict(AGREEMENT_MESSAGES.tooManyExports, "rate-limited");
  const view = await getFileView(actor, access.id);
  const [me] = await queryRows<{ company: string | null; profession: string | null }>(
    sql`select company, profession::text as profession from profiles where id = ${actor.profileId}::uuid`,
  );
  const documents = await queryRows<{
    id: string;
    name: string;
    content_type: string;
    size_bytes: number | string;
    sha256: string;
    created_at: Date | string;
    withdrawn_at: Date | string | null;
    uploader_profile_id: string | null;
    uploader_name: string | null;
  }>(sql`
    select d.id, d.name, d.content_type, d.size_bytes, d.sha256, d.created_at, d.withdrawn_at, d.uploader_profile_id,
      nullif(trim(coalesce(p.first_name, '') || ' ' || coalesce(p.last_name, '')), '') as uploader_name
    from collaboration_documents d left join profiles p on p.id = d.uploader_profile_id
    where d.file_id = ${access.id}::uuid order by d.created_at, d.id`);
  const accesses = documents.length
    ? await queryRows<{ document_id: string; viewer_name: string | null; action: string; created_at: Date | string }>(sql`
        select l.document_id, l.viewer_name, l.action, l.created_at from document_access_log l
        join collaboration_documents d on d.id = l.document_id
        where d.file_id = ${access.id}::uuid order by l.created_at, l.id`)
    : [];
  const agreements = await queryRows<{
    id: string;
    version: number;
    status: string;
    document_sha256: string;
    signed_sha256: string | null;
    created_at: Date | string;
    cancelled_at: Date | string | null;
    signed_at: Date | string | null;
  }>(sql`
    select id, version, status::text as status, document_sha256, signed_sha256, created_at, cancelled_at, signed_at
    from fee_agreements where file_id = ${access.id}::uuid order by version`);
  const signatures = agreements.length
    ? await queryRows<{ agreement_id: string; by_me: boolean; signer_name: string; signed_at: Date | string; ip_address: string | null; user_agent: string | null; method: string; document_sha256: string }>(sql`
        select s.agreement_id, coalesce(s.profile_id = ${actor.profileId}::uuid, false) as by_me, s.signer_name, s.signed_at, s.ip_address, s.user_agent, s.method, s.document_sha256
        from fee_agreement_signatures s join fee_agreements a on a.id = s.agreement_id
        where a.file_id = ${access.id}::uuid order by s.signed_at, s.id`)
    : [];

  const myName = actorName(actor);
  const who = (name: string, company: string | null, profession: string | null) =>
    [name, profession ? professionLabel(profession) : null, company].filter(Boolean).join(", ");
  const blocks: PdfBlock[] = [
    { kind: "title", text: "Historique du dossier de rapprochement" },
    { kind: "subtitle", text: `Dossier ${view.reference} — exporté le ${at(now)} par ${myName}` },
    { kind: "heading", text: "Le dossier" },
    { kind: "text", text: `Membre qui exporte\u00a0: ${who(myName, me?.company ?? null, me?.profession ?? null)} — ${view.myMandate.label}` },
    {
      kind: "text",
      text: `Confrère\u00a0: ${view.counterpart.gone ? GONE_MEMBER_NAME : who(view.counterpart.name, view.counterpart.company, view.counterpart.profession)} — ${view.theirMandate.label}`,
    },
    { kind: "text", text: `Ouvert le ${at(view.createdAt)} · étape actuelle\u00a0: ${view.stageLabel}` },
    {
      kind: "text",
      text: view.client
        ? `Client du mandat du confrère (révélé après l’engagement de confidentialité)\u00a0: ${view.client.name}, ${view.client.address}`
        : "Identité du client du confrère\u00a0: non révélée au membre qui exporte (engagement de confidentialité non signé).",
    },
  ];
  if (view.closing.concludedAt) {
    blocks.push({
      kind: "text",
      text: `Conclu le ${at(view.closing.concludedAt)}${view.closing.closingDate ? `, acte signé le ${formatDatePattern(view.closing.closingDate, "dd/MM/yyyy")}` : ""}${view.closing.amountBandLabel ? ` (${view.closing.amountBandLabel})` : ""}.`,
    });
  }
  if (view.abandon) blocks.push({ kind: "text", text: `Abandonné le ${at(view.abandon.at)}\u00a0: ${view.abandon.reasonLabel}${view.abandon.text ? ` — ${view.abandon.text}` : ""}.` });

  blocks.push({ kind: "heading", text: `Chronologie (${view.timeline.length} événements)` });
  for (const e of view.timeline) {
    // The page's « A → B » reads as words in the record.
    const stages = e.kind === "stage_changed" && e.detail ? /^(.+) → (.+)$/.exec(e.detail) : null;
    const detail = stages ? `de «\u00a0${stages[1]}\u00a0» à «\u00a0${stages[2]}\u00a0»` : e.detail;
    const line = [e.label, detail].filter(Boolean).join(" — ");
    blocks.push({ kind: "text", text: `${at(e.at)} · ${line}${e.actorName ? ` · par ${e.actorName}` : ""}` });
  }

  blocks.push({ kind: "heading", text: `Documents (${documents.length})` });
  if (documents.length === 0) blocks.push({ kind: "text", text: "Aucun document partagé." });
  for (const d of documents) {
    const type = TYPE_BY_CONTENT_TYPE.get(d.content_type);
    blocks.push({
      kind: "text",
      text: `«\u00a0${d.name}\u00a0» (${type ? DOCUMENT_TYPE_LABELS[type] : "Document"}, ${formatFileSize(Number(d.size_bytes))}) partagé le ${at(d.created_at)} par ${d.uploader_name ?? GONE_MEMBER_NAME}${d.withdrawn_at ? ` · retiré le ${at(d.withdrawn_at)}` : ""}`,
    });
    blocks.push({ kind: "mono", text: `SHA-256\u00a0: ${d.sha256}` });
    for (const l of accesses.filter((x) => x.document_id === d.id)) {
      blocks.push({ kind: "small", text: `${l.action === "view" ? "Consulté" : "Téléchargé"} par ${l.viewer_name ?? GONE_MEMBER_NAME} le ${at(l.created_at)}` });
    }
  }

  blocks.push({ kind: "heading", text: `Convention de partage d’honoraires (${agreements.length} version${agreements.length > 1 ? "s" : ""})` });
  if (agreements.length === 0) blocks.push({ kind: "text", text: "Aucune convention proposée." });
  const STATUS: Record<string, string> = { pending: "en attente de signature", signed: "signée par les deux membres", cancelled: "remplacée par une version suivante" };
  for (const a of agreements) {
    const status = a.status === "signed" && a.signed_at ? `signée le ${at(a.signed_at)}` : a.status === "cancelled" && a.cancelled_at ? `remplacée le ${at(a.cancelled_at)}` : (STATUS[a.status] ?? a.status);
    blocks.push({ kind: "text", text: `Version ${a.version}, proposée le ${at(a.created_at)}\u00a0: ${status}` });
    blocks.push({ kind: "mono", text: `SHA-256 du document à signer\u00a0: ${a.document_sha256}` });
    if (a.signed_sha256) blocks.push({ kind: "mono", text: `SHA-256 de l’exemplaire signé\u00a0: ${a.signed_sha256}` });
    for (const s of signatures.filter((x) => x.agreement_id === a.id)) {
      // Both signers' network evidence, for the two parties.
      const seen = visibleNetworkEvidence("signature", s.by_me ? "self" : "party", { ipAddress: s.ip_address, userAgent: s.user_agent });
      blocks.push({
        kind: "small",
        text: `Signée par ${s.signer_name} le ${at(s.signed_at)} — ${SIGNATURE_METHOD_LABELS[s.method] ?? s.method} — IP ${seen.ipAddress ?? "inconnue"} — ${seen.userAgent ?? "navigateur inconnu"} — document ${s.document_sha256}`,
      });
    }
  }
  blocks.push(
    { kind: "space", text: "" },
    {
      kind: "small",
      text: `Ce document reproduit l’historique enregistré par la plateforme, qui ne peut pas être modifié. Son empreinte (SHA-256), qui ne peut pas figurer dans le document lui-même, est inscrite dans l’historique du dossier sur la plateforme\u00a0: onglet «\u00a0Suivi\u00a0», événement «\u00a0Historique exporté\u00a0» du ${formatDatePattern(now, "dd/MM/yyyy")}. Pour vérifier que ce PDF n’a pas été modifié, calculez son empreinte SHA-256 et comparez-la à celle-ci. Le PDF porte aussi le cachet électronique horodaté de la plateforme\u00a0: un lecteur PDF (panneau «\u00a0Signatures\u00a0») indique s’il a été modifié depuis.`,
    },
  );

  const doc = await textPdfDocument(blocks, { title: "Historique du dossier de rapprochement", createdAt: now });
  const bytes = await sealOrRefuse(doc, { reason: `Historique du dossier ${access.reference} exporté par ${myName}`, signingTime: now });
  const sha256 = createHash("sha256").update(bytes).digest("hex");
  const fileName = `historique-dossier-${formatDatePattern(now, "yyyy-MM-dd")}.pdf`;
  await withFile(actor, access.id, async (tx, file) => {
    await appendFileEvent(tx, file.id, actor, "evidence_exported", { sha256, exportedAt: now.toISOString() });
  });
  return { bytes, sha256, fileName, disposition: contentDisposition("attachment", fileName), exportedAt: now };
}
