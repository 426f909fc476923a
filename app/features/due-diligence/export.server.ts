// The due-diligence list as XLSX (exceljs) and PDF (the file's text PDFs), each as the acting
// member's side sees it (open questions counted for that side only).
import ExcelJS from "exceljs";
import type { PdfBlock } from "~/features/collaboration/agreement-rules";
import { contentDisposition } from "~/features/collaboration/documents-rules";
import type { FileActor } from "~/features/collaboration/file-access.server";
import { renderTextPdf } from "~/lib/pdf/text-pdf.server";
import { formatDate, formatDateTime } from "~/lib/format";
import { DD_CATEGORY_LABELS, DD_SIDE_LABELS, DD_STATUS_LABELS, type DdProgress, type DdSide } from "./due-diligence-rules";
import { getDueDiligenceExport, type DdExportRow } from "./due-diligence-read.server";

export type DdExportFile = { bytes: Uint8Array; contentType: string; disposition: string };

export const XLSX_HEADERS = ["Rubrique", "Demande", "Statut", "Responsable", "Échéance", "Documents", "Questions ouvertes"] as const;

const XLSX_TYPE = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet";

function cells(r: DdExportRow): (string | number)[] {
  return [
    DD_CATEGORY_LABELS[r.category],
    r.title,
    DD_STATUS_LABELS[r.status],
    r.ownerName ?? "",
    r.dueDate ? formatDate(r.dueDate) : "",
    r.documents.join("\n"),
    r.openQuestions,
  ];
}

/** The list as one side sees it: what both the founders' and a participant's exports render. */
export type DdExportList = { reference: string; side: DdSide; progress: DdProgress; rows: DdExportRow[] };

/** The list of a file as a workbook of one sheet, one row per item, or as a PDF. */
export async function exportDueDiligence(actor: Pick<FileActor, "profileId">, fileId: string, format: "xlsx" | "pdf"): Promise<DdExportFile> {
  return renderDueDiligence(await getDueDiligenceExport(actor, fileId), format);
}

export async function renderDueDiligence(list: DdExportList, format: "xlsx" | "pdf"): Promise<DdExportFile> {
  const now = new Date();
  const base = `diligences-${list.reference}`;
  if (format === "xlsx") {
    const book = new ExcelJS.Workbook();
    book.creator = "Dossiers de rapprochement";
    book.created = now;
    const sheet = book.addWorksheet("Diligences");
    sheet.columns = XLSX_HEADERS.map((header, i) => ({ header, key: String(i), width: [14, 60, 12, 24, 12, 40, 12][i] }));
    sheet.getRow(1).font = { bold: true };
    sheet.views = [{ state: "frozen", ySplit: 1 }];
    for (const r of list.rows) sheet.addRow(cells(r)).alignment = { vertical: "top", wrapText: true };
    const bytes = new Uint8Array(await book.xlsx.writeBuffer());
    return { bytes, contentType: XLSX_TYPE, disposition: contentDisposition("attachment", `${base}.xlsx`) };
  }
  const blocks: PdfBlock[] = [
    { kind: "title", text: "Liste de diligences" },
    { kind: "subtitle", text: `Dossier ${list.reference} · ${list.progress.label} · édité le ${formatDateTime(now)}` },
    { kind: "small", text: `Vue du côté ${DD_SIDE_LABELS[list.side].toLowerCase()}\u00a0: les questions réservées à l’autre côté n’y sont pas comptées.` },
  ];
  if (!list.rows.length) blocks.push({ kind: "text", text: "La liste ne contient encore aucune demande." });
  let category: string | null = null;
  for (const r of list.rows) {
    if (r.category !== category) {
      category = r.category;
      blocks.push({ kind: "heading", text: DD_CATEGORY_LABELS[r.category] });
    }
    const meta = [
      DD_STATUS_LABELS[r.status],
      r.ownerName ? `responsable\u00a0: ${r.ownerName}` : null,
      r.dueDate ? `échéance\u00a0: ${formatDate(r.dueDate)}` : null,
      r.openQuestions ? `${r.openQuestions} question${r.openQuestions > 1 ? "s" : ""} ouverte${r.openQuestions > 1 ? "s" : ""}` : null,
    ].filter(Boolean);
    blocks.push({ kind: "text", text: `${r.title} — ${meta.join(" · ")}` });
    if (r.documents.length) blocks.push({ kind: "small", text: `Documents\u00a0: ${r.documents.join(", ")}` });
  }
  const bytes = await renderTextPdf(blocks, { title: `Liste de diligences — ${list.reference}`, footer: `Liste de diligences — dossier ${list.reference}`, createdAt: now });
  return { bytes, contentType: "application/pdf", disposition: contentDisposition("attachment", `${base}.pdf`) };
}
