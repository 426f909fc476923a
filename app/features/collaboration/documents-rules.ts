// Pure rules of the document room of a collaboration file: what may be shared (the type comes
// from the bytes, app/lib/storage/upload-rules.ts), under which name, within which limits, and
// how sizes, access entries and the PDF watermark read. Browser-safe.
import { formatDatePattern } from "~/lib/format";
import { ACCEPTED_DOCUMENT_EXTENSIONS, DOCUMENT_FORMATS, MB, type DocumentType } from "~/lib/storage/upload-rules";

export { detectDocumentType, DOCUMENT_FORMATS, type DocumentType } from "~/lib/storage/upload-rules";

/** One document: 20 MB. */
export const DOCUMENT_MAX_MB = 20;
/** All the shared (not withdrawn) documents of one file: 200 MB. */
export const FILE_DOCUMENTS_MAX_MB = 200;
/** Logical documents per page of a file's document list (a large file has hundreds). */
export const DOCUMENTS_PAGE_SIZE = 10;

/** The openings of a document listed under it for its uploader, newest first; the evidence export has them all. */
export const DOCUMENT_ACCESSES_SHOWN = 20;
/** Longest stored name, extension included. */
export const DOCUMENT_NAME_MAX_LENGTH = 120;

export type DocumentLimits = { maxBytes: number; quotaBytes: number };

export const DOCUMENT_LIMITS: DocumentLimits = { maxBytes: DOCUMENT_MAX_MB * MB, quotaBytes: FILE_DOCUMENTS_MAX_MB * MB };

/** The file picker's `accept`: extensions and content types (the server decides from the bytes). */
export const ACCEPTED_DOCUMENT_TYPES = [...ACCEPTED_DOCUMENT_EXTENSIONS, ...new Set(Object.values(DOCUMENT_FORMATS).map((f) => f.contentType))].join(",");

/** What each type is called on screen. */
export const DOCUMENT_TYPE_LABELS: Record<DocumentType, string> = {
  pdf: "PDF",
  jpeg: "Image JPEG",
  png: "Image PNG",
  xlsx: "Classeur Excel",
  docx: "Document Word",
};

const megabytes = (bytes: number) => new Intl.NumberFormat("fr-FR", { maximumFractionDigits: 1 }).format(bytes / MB);

export const DOCUMENT_MESSAGES = {
  noFile: "Choisissez un fichier à partager.",
  empty: "Le fichier est vide.",
  tooLarge: (maxBytes: number = DOCUMENT_LIMITS.maxBytes) => `Le fichier dépasse ${megabytes(maxBytes)}\u00a0Mo.`,
  quota: (quotaBytes: number = DOCUMENT_LIMITS.quotaBytes) => `Le dossier dépasse ${megabytes(quotaBytes)}\u00a0Mo de documents.`,
  unsupported: "Ce type de fichier n’est pas accepté\u00a0: partagez un PDF, une image JPEG ou PNG, un classeur Excel (.xlsx) ou un document Word (.docx).",
  notPdf: "Ce fichier n’est pas un PDF valide.",
  encryptedPdf: "Ce PDF est protégé par un mot de passe\u00a0: partagez une version sans protection.",
  inflatedTooLarge: "Ce PDF ne peut pas être traité\u00a0: son contenu décompressé dépasse la limite",
  pdfTooComplex: "Ce PDF ne peut pas être traité\u00a0: il demande trop de temps ou de mémoire. Partagez une version allégée.",
  pdfBusy: "Trop de PDF sont en cours de traitement. Veuillez réessayer dans un instant.",
  notImage: "Cette image est illisible ou incomplète.",
  badName: "Le nom du fichier n’est pas valide\u00a0: renommez-le avant de le partager.",
  storeFailed: "Le document n’a pas pu être enregistré. Veuillez réessayer.",
  uploadFailed: "L’envoi du fichier a échoué. Veuillez réessayer.",
  notFound: "Ce document n’existe pas ou n’est plus partagé.",
  notUploader: "Seul le membre qui a partagé ce document peut le retirer.",
  alreadyWithdrawn: "Ce document a déjà été retiré.",
  tooManyUploads: "Trop de documents envoyés en peu de temps. Veuillez réessayer plus tard.",
  tooManyOpens: "Trop de documents ouverts en peu de temps. Veuillez réessayer plus tard.",
  badFolder: "Ce dossier de documents n’existe pas ou vous ne pouvez pas y déposer.",
  shared: "Document partagé",
  withdrawn: "Document retiré",
} as const;

/** What the document room says of the stamp: what it does, and honestly what it does not. */
export const DOCUMENT_ROOM_TEXTS = {
  watermarkNotice:
    "À chaque ouverture, un PDF est marqué au nom de la personne qui l’ouvre, avec la date et une référence propre à cette ouverture, " +
    "également inscrite de façon invisible dans les pages et dans les propriétés du fichier. Ce marquage dissuade la diffusion et permet, " +
    "le plus souvent, de retrouver de quelle ouverture provient une copie. Il n’empêche ni de lire, d’imprimer ou de recopier le document, " +
    "ni de le photographier ou d’en faire une capture d’écran, et une personne déterminée peut l’effacer. Les images et les fichiers " +
    "Word ou Excel ne sont pas marqués\u00a0: ne partagez que ce que votre confrère peut voir.",
} as const;

export type DocumentSizeProblem = "empty" | "too-large" | "quota";

/**
 * Why a file of `size` bytes cannot join a file whose shared documents already weigh
 * `usedBytes`, or null when it can.
 */
export function documentSizeProblem(size: number, usedBytes: number, limits: DocumentLimits = DOCUMENT_LIMITS): DocumentSizeProblem | null {
  if (size <= 0) return "empty";
  if (size > limits.maxBytes) return "too-large";
  if (usedBytes + size > limits.quotaBytes) return "quota";
  return null;
}

export function documentSizeMessage(problem: DocumentSizeProblem, limits: DocumentLimits = DOCUMENT_LIMITS): string {
  if (problem === "empty") return DOCUMENT_MESSAGES.empty;
  return problem === "too-large" ? DOCUMENT_MESSAGES.tooLarge(limits.maxBytes) : DOCUMENT_MESSAGES.quota(limits.quotaBytes);
}

// Extensions dropped from a name before the real one is put back ("photo.jpeg" → "photo.jpg",
// "scan.png" holding a JPEG → "scan.jpg"); any other dot stays part of the name ("v1.2").
const REPLACED_EXTENSIONS = new Set(["pdf", "jpg", "jpeg", "jpe", "jfif", "png", "xlsx", "xlsm", "xls", "docx", "docm", "doc", "zip", "webp", "gif", "heic", "tif", "tiff", "bmp", "txt"]);

// Control characters, format characters (bidi overrides and isolates, zero-width characters,
// soft hyphen), line/paragraph separators and lone surrogates: invisible or misleading in a name.
const INVISIBLE = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\p{Cs}]/gu;
// Reserved in file names on Windows (and quotes that would break a header).
const RESERVED = /[<>:"|?*]/g;

/**
 * The name a document is stored and served under, from the name the browser sent: only its
 * last path segment, without invisible or reserved characters, accents kept, at most 120
 * characters, ending with the extension of the type found in the bytes. Null when nothing
 * readable is left.
 */
export function sanitizeDocumentName(raw: string, type: DocumentType): string | null {
  const lastSegment = raw.split(/[\\/]/).pop() ?? "";
  let name = lastSegment.slice(0, 1000).normalize("NFC").replace(INVISIBLE, "").replace(RESERVED, "_").replace(/\s+/gu, " ").trim();
  const dot = name.lastIndexOf(".");
  // ".pdf" alone is an extension without a name (refused below), not a file called "pdf".
  if (dot >= 0 && REPLACED_EXTENSIONS.has(name.slice(dot + 1).toLowerCase())) name = name.slice(0, dot);
  // No leading dot (hidden files, "..") and no trailing dot or space (refused by Windows).
  let stem = name.replace(/^[.\s]+/u, "").replace(/[.\s]+$/u, "");
  if (!/[\p{L}\p{N}]/u.test(stem)) return null;
  const extension = DOCUMENT_FORMATS[type].extension;
  const room = DOCUMENT_NAME_MAX_LENGTH - extension.length - 1;
  const chars = Array.from(stem);
  if (chars.length > room) stem = chars.slice(0, room).join("").replace(/[.\s]+$/u, "");
  return `${stem}.${extension}`;
}

const sizeFormat = (digits: number) => new Intl.NumberFormat("fr-FR", { maximumFractionDigits: digits });

/** "820 octets", "12 Ko", "1,5 Mo" (French units and decimal comma, 1 Ko = 1 024 octets). */
export function formatFileSize(bytes: number): string {
  const n = Math.max(0, Math.round(bytes));
  if (n < 1024) return `${n}\u00a0${n < 2 ? "octet" : "octets"}`;
  const [value, unit] = n < MB ? [n / 1024, "Ko"] : [n / MB, "Mo"];
  return `${sizeFormat(value < 10 ? 1 : 0).format(value)}\u00a0${unit}`;
}

/**
 * A Content-Disposition header: an ASCII fallback name (accents dropped, anything else
 * replaced) for old clients and the exact UTF-8 name in filename* (RFC 6266, RFC 8187).
 */
export function contentDisposition(kind: "inline" | "attachment", name: string): string {
  const fallback =
    name
      .normalize("NFD")
      .replace(/[\u0300-\u036f]/g, "")
      .replace(/[^\x20-\x7e]|["\\%;]/g, "_")
      .trim() || "document";
  const encoded = encodeURIComponent(name).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return `${kind}; filename="${fallback}"; filename*=UTF-8''${encoded}`;
}

export type AccessAction = "view" | "download";

const ACCESS_VERBS: Record<AccessAction, string> = { view: "Consulté", download: "Téléchargé" };

/** "Consulté par Jeanne Martin le 24/11/2026 à 10:42" (the uploader reads "par vous" for their own). */
export function accessLabel(action: AccessAction, viewer: string, at: Date | string): string {
  return `${ACCESS_VERBS[action]} par ${viewer} le ${formatDatePattern(at, "dd/MM/yyyy 'à' HH:mm")}`;
}

/**
 * The line stamped on every page of a served PDF: who opened it and when (Europe/Paris).
 * "Consulté par Jeanne Martin (Cabinet X) le 24/11/2026 à 10:42 — document confidentiel"
 */
export function watermarkLine(viewer: { name: string; company: string | null }, at: Date): string {
  const who = viewer.company?.trim() ? `${viewer.name} (${viewer.company.trim()})` : viewer.name;
  return `Consulté par ${who} le ${formatDatePattern(at, "dd/MM/yyyy 'à' HH:mm")} — document confidentiel`;
}

// Kept with the PDF worker (app/lib/untrusted), which draws the stamp; re-exported for the text PDFs.
export { drawableText } from "~/lib/untrusted/drawable-text";

/** The document room of a file. */
export function documentsUrl(fileId: string): string {
  return `/dashboard/dossiers/${fileId}/documents`;
}

/** Where a document is served: viewed in the browser (PDF) or downloaded. */
export function documentUrl(fileId: string, documentId: string, mode: "view" | "download"): string {
  return `${documentsUrl(fileId)}/${documentId}?mode=${mode}`;
}
