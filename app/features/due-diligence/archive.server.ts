// The due-diligence part of a concluded file's closing archive: the list as the member's side sees
// it (XLSX and PDF) and every question with its answer, as JSON — the whole list, not a page of it.
import { sql, type SQL } from "drizzle-orm";
import { queryRows } from "~/db/query.server";
import { made as entry, type ArchiveSection } from "~/features/collaboration/closing-archive.server";
import { uniquePath } from "~/features/collaboration/closing-archive-rules";
import { folderSeenByFounder } from "~/features/collaboration/document-list.server";
import { DD_SIDE_LABELS, type DdSide } from "./due-diligence-rules";
import { getDueDiligenceExport } from "./due-diligence-read.server";
import { renderDueDiligence } from "./export.server";
import { DD_ORDER } from "./list-page.server";

export type ArchivedQuestion = {
  demande: string | null;
  sur: string;
  visibilite: DdSide;
  question: string;
  posee_par: string;
  posee_le: string;
  reponse: string | null;
  repondue_par: string | null;
  repondue_le: string | null;
  statut: string;
};

/**
 * Every question of the file a side sees, in the list's order then asked order, in one statement;
 * `documentSeen` (on `d`, its folder `fo`) leaves out a question on a document the reader does not see.
 */
export async function archivedQuestions(fileId: string, side: DdSide, documentSeen: SQL = sql`true`): Promise<ArchivedQuestion[]> {
  const rows = await queryRows<{
    title: string | null;
    document_name: string | null;
    visibility: DdSide;
    body: string;
    asker_name: string;
    created_at: Date | string;
    answer: string | null;
    answerer_name: string | null;
    answered_at: Date | string | null;
    status: string;
  }>(sql`
    select r.title, d.name as document_name, q.visibility::text as visibility, q.body, q.asker_name, q.created_at, q.answer, q.answerer_name, q.answered_at, q.status::text as status
    from due_diligence_questions q
    left join due_diligence_requests r on r.id = q.request_id
    left join collaboration_documents d on d.id = q.document_id
    left join collaboration_folders fo on fo.id = d.folder_id
    where q.file_id = ${fileId}::uuid and (q.visibility = 'commun' or q.visibility = ${side}::dd_side)
      and (q.document_id is null or ${documentSeen})
    order by ${DD_ORDER} nulls last, q.created_at, q.id`);
  const iso = (v: Date | string) => new Date(v).toISOString();
  return rows.map((q) => ({
    demande: q.title,
    sur: q.document_name ? `document ${q.document_name}` : "demande",
    visibilite: q.visibility,
    question: q.body,
    posee_par: q.asker_name,
    posee_le: iso(q.created_at),
    reponse: q.answer,
    repondue_par: q.answerer_name,
    repondue_le: q.answered_at ? iso(q.answered_at) : null,
    statut: q.status,
  }));
}

export const dueDiligenceArchiveSection: ArchiveSection = async ({ access, actor, taken }) => {
  const list = await getDueDiligenceExport(actor, access.id);
  if (list.rows.length === 0) return [];
  const xlsx = await renderDueDiligence(list, "xlsx");
  const pdf = await renderDueDiligence(list, "pdf");
  const questions = await archivedQuestions(access.id, list.side, folderSeenByFounder(actor.profileId));
  const qa = Buffer.from(`${JSON.stringify({ file: access.reference, side: list.side, questions }, null, 2)}\n`);
  return [
    entry(uniquePath("diligences", "liste-de-diligences.xlsx", taken), xlsx.bytes, `Liste de diligences (${list.progress.label}), vue du côté ${DD_SIDE_LABELS[list.side].toLowerCase()}`),
    entry(uniquePath("diligences", "liste-de-diligences.pdf", taken), pdf.bytes, "Liste de diligences, PDF"),
    entry(uniquePath("diligences", "questions-reponses.json", taken), qa, `Questions et réponses (${questions.length})`),
  ];
};
