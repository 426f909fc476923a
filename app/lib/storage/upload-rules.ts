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
  tooLargeDescription: (maxMb: number) => `La taille du fichier ne doit pas dépasser ${maxMb}MB`,
  failedTitle: "Erreur d'upload",
  failedDescription: "Impossible d'uploader l'image. Veuillez réessayer.",
  hint: (maxMb: number) => `Formats acceptés : JPG, PNG, WebP. Taille maximale : ${maxMb}MB.`,
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
