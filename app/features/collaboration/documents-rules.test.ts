import { describe, expect, it } from "vitest";
import { minimalDocx, minimalXlsx } from "../../../tests/support/zip";
import {
  accessLabel,
  ACCEPTED_DOCUMENT_TYPES,
  contentDisposition,
  detectDocumentType,
  DOCUMENT_LIMITS,
  DOCUMENT_MAX_MB,
  DOCUMENT_MESSAGES,
  DOCUMENT_NAME_MAX_LENGTH,
  documentSizeMessage,
  documentSizeProblem,
  documentUrl,
  drawableText,
  FILE_DOCUMENTS_MAX_MB,
  formatFileSize,
  sanitizeDocumentName,
  watermarkLine,
  type DocumentType,
} from "./documents-rules";

const MB = 1024 * 1024;
const ascii = (text: string) => new TextEncoder().encode(text);

describe("the limits", () => {
  it("are 20 MB per document and 200 MB per file", () => {
    expect(DOCUMENT_MAX_MB).toBe(20);
    expect(FILE_DOCUMENTS_MAX_MB).toBe(200);
    expect(DOCUMENT_LIMITS).toEqual({ maxBytes: 20 * 1024 * 1024, quotaBytes: 200 * 1024 * 1024 });
    expect(DOCUMENT_NAME_MAX_LENGTH).toBe(120);
  });

  it("are named in the messages", () => {
    expect(DOCUMENT_MESSAGES.tooLarge()).toBe("Le fichier dépasse 20\u00a0Mo.");
    expect(DOCUMENT_MESSAGES.quota()).toBe("Le dossier dépasse 200\u00a0Mo de documents.");
    expect(DOCUMENT_MESSAGES.tooLarge(1.5 * MB)).toBe("Le fichier dépasse 1,5\u00a0Mo.");
  });
});

describe("detectDocumentType (whatever the name)", () => {
  it.each([
    ["a PDF", ascii("%PDF-1.4\n"), "pdf"],
    ["a JPEG", new Uint8Array([0xff, 0xd8, 0xff, 0xdb]), "jpeg"],
    ["a PNG", new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), "png"],
    ["an XLSX", minimalXlsx(), "xlsx"],
    ["a DOCX", minimalDocx(), "docx"],
    ["a script", ascii("#!/bin/sh\nrm -rf /"), null],
    ["an executable", ascii("MZ\x90\x00"), null],
  ])("%s → %s", (_name, input, expected) => {
    expect(detectDocumentType(input)).toBe(expected);
  });
});

describe("documentSizeProblem", () => {
  const limits = DOCUMENT_LIMITS;
  it.each([
    [0, 0, "empty"],
    [1, 0, null],
    [20 * MB, 0, null],
    [20 * MB + 1, 0, "too-large"],
    [10 * MB, 190 * MB, null],
    [10 * MB + 1, 190 * MB, "quota"],
    [1, 200 * MB, "quota"],
    [20 * MB + 1, 200 * MB, "too-large"],
  ] as const)("%d bytes with %d already shared → %s", (size, used, expected) => {
    expect(documentSizeProblem(size, used, limits)).toBe(expected);
  });

  it("follows lowered limits (tests) and names them", () => {
    const small = { maxBytes: 1000, quotaBytes: 2500 };
    expect(documentSizeProblem(1001, 0, small)).toBe("too-large");
    expect(documentSizeProblem(1000, 1600, small)).toBe("quota");
    expect(documentSizeMessage("empty")).toBe("Le fichier est vide.");
    expect(documentSizeMessage("too-large")).toBe("Le fichier dépasse 20\u00a0Mo.");
    expect(documentSizeMessage("quota")).toBe("Le dossier dépasse 200\u00a0Mo de documents.");
  });
});

describe("sanitizeDocumentName", () => {
  const long = "é".repeat(200);
  it.each<[string, string, DocumentType, string | null]>([
    ["plain", "Bilan 2025.pdf", "pdf", "Bilan 2025.pdf"],
    ["accents kept", "Présentation société — cédant.pdf", "pdf", "Présentation société — cédant.pdf"],
    ["decomposed accents recomposed (NFC)", "Ce\u0301dant.pdf", "pdf", "Cédant.pdf"],
    ["path parts dropped", "../../etc/passwd.pdf", "pdf", "passwd.pdf"],
    ["Windows path", "C:\\Users\\jean\\Bilan.pdf", "pdf", "Bilan.pdf"],
    ["only dots and slashes", "../", "pdf", null],
    ["a bare parent directory", "..", "pdf", null],
    ["an extension without a name", ".pdf", "pdf", null],
    ["a hidden file's name kept without its dot", ".bashrc", "pdf", "bashrc.pdf"],
    ["empty", "", "pdf", null],
    ["spaces only", "   ", "pdf", null],
    ["punctuation only", "-_-.pdf", "pdf", null],
    ["bidi override (fake extension)", "facture\u202Efdp.exe", "pdf", "facturefdp.exe.pdf"],
    ["bidi isolates and zero-width", "a\u2066b\u2069c\u200Bd.pdf", "pdf", "abcd.pdf"],
    ["control characters", "rap\u0000port\u0007\n.pdf", "pdf", "rapport.pdf"],
    ["reserved characters", 'devis "final": v2?.pdf', "pdf", "devis _final__ v2_.pdf"],
    ["leading dots (hidden file)", ".env.pdf", "pdf", "env.pdf"],
    ["trailing dots and spaces", "notes. . .pdf", "pdf", "notes.pdf"],
    ["spaces collapsed", "  grand    livre  .xlsx", "xlsx", "grand livre.xlsx"],
    ["wrong extension replaced by the real one", "photo.png", "jpeg", "photo.jpg"],
    ["jpeg spelled out", "photo.JPEG", "jpeg", "photo.jpg"],
    ["upper-case extension", "SCAN.PDF", "pdf", "SCAN.pdf"],
    ["missing extension added", "statuts", "docx", "statuts.docx"],
    ["unknown extension kept in the name", "contrat.exe", "pdf", "contrat.exe.pdf"],
    ["a version number is not an extension", "Rapport v1.2", "pdf", "Rapport v1.2.pdf"],
    ["too long: cut at 120 with the extension", `${long}.pdf`, "pdf", `${"é".repeat(116)}.pdf`],
    ["emoji not split when cut", `${"a".repeat(115)}😀😀.pdf`, "pdf", `${"a".repeat(115)}😀.pdf`],
  ])("%s", (_name, raw, type, expected) => {
    const out = sanitizeDocumentName(raw, type);
    expect(out).toBe(expected);
    if (out) expect(Array.from(out).length).toBeLessThanOrEqual(120);
  });
});

describe("formatFileSize", () => {
  it.each([
    [0, "0\u00a0octet"],
    [1, "1\u00a0octet"],
    [820, "820\u00a0octets"],
    [1024, "1\u00a0Ko"],
    [1536, "1,5\u00a0Ko"],
    [12 * 1024 + 300, "12\u00a0Ko"],
    [1000 * 1024, "1\u202f000\u00a0Ko"],
    [MB, "1\u00a0Mo"],
    [1.25 * MB, "1,3\u00a0Mo"],
    [20 * MB, "20\u00a0Mo"],
    [199.6 * MB, "200\u00a0Mo"],
  ])("%d → %s", (bytes, expected) => {
    expect(formatFileSize(bytes)).toBe(expected);
  });
});

describe("contentDisposition", () => {
  it.each([
    ["attachment", "Bilan 2025.pdf", `attachment; filename="Bilan 2025.pdf"; filename*=UTF-8''Bilan%202025.pdf`],
    ["inline", "Présentation société.pdf", `inline; filename="Presentation societe.pdf"; filename*=UTF-8''Pr%C3%A9sentation%20soci%C3%A9t%C3%A9.pdf`],
    ["attachment", `a"b\\c;d%e.pdf`, `attachment; filename="a_b_c_d_e.pdf"; filename*=UTF-8''a%22b%5Cc%3Bd%25e.pdf`],
    ["attachment", "l'offre (v2)*.docx", `attachment; filename="l'offre (v2)*.docx"; filename*=UTF-8''l%27offre%20%28v2%29%2A.docx`],
    ["attachment", "Вилан.pdf", `attachment; filename="_____.pdf"; filename*=UTF-8''%D0%92%D0%B8%D0%BB%D0%B0%D0%BD.pdf`],
  ] as const)("%s %s", (kind, name, expected) => {
    expect(contentDisposition(kind, name)).toBe(expected);
  });
});

describe("labels of access and watermark (Europe/Paris time)", () => {
  const at = new Date("2026-11-24T09:42:00Z"); // 10:42 in Paris (winter time)
  it("reads the access log", () => {
    expect(accessLabel("view", "Jeanne Martin", at)).toBe("Consulté par Jeanne Martin le 24/11/2026 à 10:42");
    expect(accessLabel("download", "vous", "2026-07-01T08:05:00Z")).toBe("Téléchargé par vous le 01/07/2026 à 10:05");
  });

  it("names the viewer, their firm and the date", () => {
    expect(watermarkLine({ name: "Jeanne Martin", company: "Cabinet X" }, at)).toBe(
      "Consulté par Jeanne Martin (Cabinet X) le 24/11/2026 à 10:42 — document confidentiel",
    );
    expect(watermarkLine({ name: "Jeanne Martin", company: "  " }, at)).toBe("Consulté par Jeanne Martin le 24/11/2026 à 10:42 — document confidentiel");
  });

  it("replaces what the font cannot draw", () => {
    const latin1 = (code: number) => code >= 0x20 && code <= 0xff;
    expect(drawableText("Zoë Łukasz Ōno 李", latin1)).toBe("Zoë ?ukasz Ono ?");
    expect(drawableText("tab\there", latin1)).toBe("tab here");
  });
});

describe("addresses", () => {
  it("serves documents under the file, never under /uploads/", () => {
    expect(documentUrl("f1", "d1", "view")).toBe("/dashboard/dossiers/f1/documents/d1?mode=view");
    expect(ACCEPTED_DOCUMENT_TYPES).toContain(".pdf");
    expect(ACCEPTED_DOCUMENT_TYPES).toContain("application/vnd.openxmlformats-officedocument.wordprocessingml.document");
  });
});
