// Pure rules of a concluded file's closing archive: entry names and
// the manifest of SHA-256 hashes.

export type ArchiveEntryMeta = { path: string; sha256: string; size: number; description: string };

/** A file name safe in any unzip tool: no separators, no control characters, at most 100 chars. */
export function safeEntryName(name: string): string {
  const cleaned = name
    .normalize("NFC")
    .replace(/\p{Cc}+/gu, "_")
    .replace(/[/\\:*?"<>|]+/g, "_")
    .replace(/^\.+/, "_")
    .trim();
  const base = cleaned === "" ? "document" : cleaned;
  if (base.length <= 100) return base;
  const dot = base.lastIndexOf(".");
  const ext = dot > 0 && base.length - dot <= 10 ? base.slice(dot) : "";
  return base.slice(0, 100 - ext.length) + ext;
}

/** `folder/name`, with « (2) », « (3) »… before the extension when the path is taken. */
export function uniquePath(folder: string, name: string, taken: Set<string>): string {
  const safe = safeEntryName(name);
  let candidate = `${folder}/${safe}`;
  const dot = safe.lastIndexOf(".");
  const [stem, ext] = dot > 0 ? [safe.slice(0, dot), safe.slice(dot)] : [safe, ""];
  for (let n = 2; taken.has(candidate.toLowerCase()); n++) candidate = `${folder}/${stem} (${n})${ext}`;
  taken.add(candidate.toLowerCase());
  return candidate;
}

/** The manifest as JSON (sorted by path): what the sealed manifest PDF lists and hashes. */
export function manifestJson(input: { reference: string; builtAt: Date; entries: readonly ArchiveEntryMeta[] }): string {
  const entries = [...input.entries].sort((x, y) => (x.path < y.path ? -1 : x.path > y.path ? 1 : 0));
  return `${JSON.stringify({ file: input.reference, builtAt: input.builtAt.toISOString(), algorithm: "SHA-256", entries }, null, 2)}\n`;
}

/** The folder of a logical document in the archive: its first version's name without the extension. */
export function documentFolderName(name: string): string {
  const dot = name.lastIndexOf(".");
  return dot > 0 ? name.slice(0, dot) : name;
}
