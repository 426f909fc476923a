// What an image upload may be (spec §5 "Image upload", §9). Pure and browser-safe: the upload
// component checks the same limits before sending, the server decides from the bytes.

/** Default limit of the upload component (spec §9: 5 MB). */
export const DEFAULT_MAX_UPLOAD_MB = 5;
/** The profile editor passes a lower limit (spec §9: "a maximum of 2", read as MB). */
export const PROFILE_IMAGE_MAX_MB = 2;

export const MB = 1024 * 1024;

export type ImageType = "jpeg" | "png" | "webp";

/** MIME types the file picker offers (JPG, PNG, WebP are advertised, spec §5). */
export const ACCEPTED_IMAGE_MIME_TYPES = ["image/jpeg", "image/png", "image/webp"] as const;

export const UPLOAD_MESSAGES = {
  unsupportedTitle: "Type de fichier non supporté",
  unsupportedDescription: "Veuillez sélectionner une image",
  tooLargeTitle: "Fichier trop volumineux",
  tooLargeDescription: (maxMb: number) => `La taille du fichier ne doit pas dépasser ${maxMb}\u00a0Mo`,
  failedTitle: "Erreur d'upload",
  failedDescription: "Impossible d'uploader l'image. Veuillez réessayer.",
  hint: (maxMb: number) => `Formats acceptés\u00a0: JPG, PNG, WebP. Taille maximale\u00a0: ${maxMb}\u00a0Mo.`,
} as const;

/**
 * The image type announced by the file's first bytes (magic numbers), whatever its name or the
 * Content-Type the browser sent. Anything but JPEG, PNG or WebP (SVG, GIF, HEIC, PDF…) is null.
 */
export function detectImageType(bytes: Uint8Array): ImageType | null {
  const at = (i: number) => bytes[i];
  if (bytes.length >= 3 && at(0) === 0xff && at(1) === 0xd8 && at(2) === 0xff) return "jpeg";
  const png = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
  if (bytes.length >= png.length && png.every((b, i) => at(i) === b)) return "png";
  const ascii = (from: number, to: number) => String.fromCharCode(...bytes.subarray(from, to));
  if (bytes.length >= 12 && ascii(0, 4) === "RIFF" && ascii(8, 12) === "WEBP") return "webp";
  return null;
}

/** Client-side pre-check of a picked file (the server checks again, from the bytes). */
export function precheckFile(file: { type: string; size: number }, maxMb: number): { title: string; description: string } | null {
  if (!(ACCEPTED_IMAGE_MIME_TYPES as readonly string[]).includes(file.type)) {
    return { title: UPLOAD_MESSAGES.unsupportedTitle, description: UPLOAD_MESSAGES.unsupportedDescription };
  }
  if (file.size > maxMb * MB) {
    return { title: UPLOAD_MESSAGES.tooLargeTitle, description: UPLOAD_MESSAGES.tooLargeDescription(maxMb) };
  }
  return null;
}

// ---------------------------------------------------------------------------------------------
// Documents (shared in collaboration files): PDF, JPEG, PNG, XLSX, DOCX, decided from the bytes.

export type DocumentType = "pdf" | "jpeg" | "png" | "xlsx" | "docx";

/** Extension and content type under which each document type is stored and served. */
export const DOCUMENT_FORMATS: Record<DocumentType, { extension: string; contentType: string }> = {
  pdf: { extension: "pdf", contentType: "application/pdf" },
  jpeg: { extension: "jpg", contentType: "image/jpeg" },
  png: { extension: "png", contentType: "image/png" },
  xlsx: { extension: "xlsx", contentType: "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet" },
  docx: { extension: "docx", contentType: "application/vnd.openxmlformats-officedocument.wordprocessingml.document" },
};

/** What the document picker offers (the server still decides from the bytes). */
export const ACCEPTED_DOCUMENT_EXTENSIONS = [".pdf", ".jpg", ".jpeg", ".png", ".xlsx", ".docx"] as const;

const u16 = (b: Uint8Array, i: number) => b[i] | (b[i + 1] << 8);
const u32 = (b: Uint8Array, i: number) => (b[i] | (b[i + 1] << 8) | (b[i + 2] << 16) | (b[i + 3] << 24)) >>> 0;
const startsWith = (b: Uint8Array, signature: readonly number[]) => b.length >= signature.length && signature.every((v, i) => b[i] === v);

const ZIP_LOCAL_HEADER = [0x50, 0x4b, 0x03, 0x04];
const ZIP_END_OF_DIRECTORY = 0x06054b50;
const ZIP_DIRECTORY_ENTRY = 0x02014b50;
const MAX_ZIP_ENTRIES = 10_000;

/**
 * The entry names of a ZIP archive, read from its central directory (the list the archive
 * itself declares at its end), or null when the bytes are not a well-formed ZIP. ZIP64 archives
 * (over 4 GB or 65,535 entries) are not needed for 20 MB documents and are refused.
 */
export function zipEntryNames(bytes: Uint8Array): string[] | null {
  if (!startsWith(bytes, ZIP_LOCAL_HEADER) || bytes.length < 22) return null;
  // The end record is 22 bytes plus a comment of at most 65,535: search backwards for it.
  let end = -1;
  for (let i = bytes.length - 22; i >= Math.max(0, bytes.length - 22 - 0xffff); i--) {
    if (u32(bytes, i) === ZIP_END_OF_DIRECTORY && i + 22 + u16(bytes, i + 20) <= bytes.length) {
      end = i;
      break;
    }
  }
  if (end < 0) return null;
  const count = u16(bytes, end + 10);
  const size = u32(bytes, end + 12);
  const offset = u32(bytes, end + 16);
  if (count === 0xffff || offset === 0xffffffff || count > MAX_ZIP_ENTRIES || offset + size > end) return null;
  const names: string[] = [];
  let p = offset;
  for (let n = 0; n < count; n++) {
    if (p + 46 > end || u32(bytes, p) !== ZIP_DIRECTORY_ENTRY) return null;
    const nameLength = u16(bytes, p + 28);
    const next = p + 46 + nameLength + u16(bytes, p + 30) + u16(bytes, p + 32);
    if (next > end) return null;
    names.push(new TextDecoder().decode(bytes.subarray(p + 46, p + 46 + nameLength)));
    p = next;
  }
  return names;
}

/**
 * The Office Open XML type of a ZIP: a workbook (xl/workbook.xml) or a Word document
 * (word/document.xml) with its [Content_Types].xml. Macro-enabled files (a vbaProject.bin part),
 * other office formats (presentations, binary workbooks) and plain archives are null.
 */
function officeType(bytes: Uint8Array): "xlsx" | "docx" | null {
  const names = zipEntryNames(bytes);
  if (!names || !names.includes("[Content_Types].xml")) return null;
  if (names.some((name) => /(^|\/)vbaProject\.bin$/i.test(name))) return null;
  const workbook = names.includes("xl/workbook.xml");
  const word = names.includes("word/document.xml");
  if (workbook === word) return null;
  return workbook ? "xlsx" : "docx";
}

/** The document type announced by the file's bytes, whatever its name; null for anything else. */
export function detectDocumentType(bytes: Uint8Array): DocumentType | null {
  if (startsWith(bytes, [0x25, 0x50, 0x44, 0x46, 0x2d])) return "pdf"; // %PDF-
  const image = detectImageType(bytes);
  if (image === "jpeg" || image === "png") return image;
  return officeType(bytes);
}
