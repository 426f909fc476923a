/** One paragraph of a text PDF (app/lib/pdf/text-pdf.server.ts), drawn in the style of its kind. */
export type PdfBlock = { kind: "title" | "subtitle" | "heading" | "text" | "small" | "mono" | "space"; text: string };
