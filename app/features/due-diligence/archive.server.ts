// The due-diligence part of a concluded file's closing archive: the list as the member's side sees
// it (XLSX and PDF) and every question with its answer, as JSON.
import { made as entry, type ArchiveSection } from "~/features/collaboration/closing-archive.server";
import { uniquePath } from "~/features/collaboration/closing-archive-rules";
import { DD_SIDE_LABELS } from "./due-diligence-rules";
import { getDueDiligenceItem, getDueDiligenceList } from "./due-diligence.server";
import { exportDueDiligence } from "./export.server";

export const dueDiligenceArchiveSection: ArchiveSection = async ({ access, actor, taken }) => {
  const list = await getDueDiligenceList(actor, access.id);
  if (list.items.length === 0) return [];
  const xlsx = await exportDueDiligence(actor, access.id, "xlsx");
  const pdf = await exportDueDiligence(actor, access.id, "pdf");
  const questions = [];
  for (const item of list.items) {
    const page = await getDueDiligenceItem(actor, access.id, item.id);
    for (const q of page.questions) {
      questions.push({
        demande: item.title,
        sur: q.on.kind === "document" ? `document ${q.on.name}` : "demande",
        visibilite: q.visibility,
        question: q.body,
        posee_par: q.askerName,
        posee_le: q.askedAt,
        reponse: q.answer,
        repondue_par: q.answererName,
        repondue_le: q.answeredAt,
        statut: q.status,
      });
    }
  }
  const qa = Buffer.from(`${JSON.stringify({ file: access.reference, side: list.side, questions }, null, 2)}\n`);
  return [
    entry(uniquePath("diligences", "liste-de-diligences.xlsx", taken), xlsx.bytes, `Liste de diligences (${list.progress.label}), vue du côté ${DD_SIDE_LABELS[list.side].toLowerCase()}`),
    entry(uniquePath("diligences", "liste-de-diligences.pdf", taken), pdf.bytes, "Liste de diligences, PDF"),
    entry(uniquePath("diligences", "questions-reponses.json", taken), qa, `Questions et réponses (${questions.length})`),
  ];
};
