// Storage keys are paths such as "{userId}/{timestamp}-{random}.webp" or
// "documents/{fileId}/{random}.pdf". Letters, digits, "_" and "-" in every segment, dots only
// inside the last one's name: no ".." or absolute path can ever reach a driver.
const KEY_PATTERN = /^[A-Za-z0-9_-]{1,128}(?:\/[A-Za-z0-9_-]{1,128}){0,3}\/[A-Za-z0-9_-]{1,128}\.[a-z0-9]{1,8}$/;

export function isSafeKey(key: string): boolean {
  return KEY_PATTERN.test(key);
}

/** The content type of each extension a driver accepts (drivers keep no other metadata on disk). */
export const CONTENT_TYPES: Readonly<Record<string, string>> = {
  webp: "image/webp",
  png: "image/png",
  jpg: "image/jpeg",
  pdf: "application/pdf",
  xlsx: "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
  docx: "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
};

export function contentTypeOfKey(key: string): string | undefined {
  const dot = key.lastIndexOf(".");
  const extension = key.slice(dot + 1);
  return dot >= 0 && Object.hasOwn(CONTENT_TYPES, extension) ? CONTENT_TYPES[extension] : undefined;
}

/**
 * Keys under this prefix are shared documents of collaboration files: private, served only by
 * the file's authenticated route, never under the public /uploads/ URLs.
 */
export const PRIVATE_DOCUMENTS_PREFIX = "documents/";

export function isPrivateKey(key: string): boolean {
  return key.startsWith(PRIVATE_DOCUMENTS_PREFIX);
}

/** Throws on a key no driver may touch (a caller's bug or a forged value, never a user's mistake). */
export function checkKey(key: string): void {
  if (!isSafeKey(key)) throw new Error(`invalid storage key: ${JSON.stringify(key)}`);
}

/** The public URL of a key under a driver's prefix; private keys have none. */
export function publicUrlOfKey(publicPrefix: string, key: string): string {
  checkKey(key);
  if (isPrivateKey(key)) throw new Error(`private storage key has no public URL: ${key}`);
  return `${publicPrefix}${key}`;
}
