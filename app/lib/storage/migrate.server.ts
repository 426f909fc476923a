// Copying every stored object from one store to another (npm run storage:migrate):
// resumable (an object already at the destination with the same SHA-256 is skipped without
// being read) and verified (each copy is read back through the destination's checks and hashed
// before it counts). The source is left as it was: switching back is a configuration change.
import { readObjectStream, sha256Hex } from "./integrity.server";
import { contentTypeOfKey } from "./keys";
import type { StorageBackend } from "./types";

export const STORE_NAMES = ["database", "local", "s3"] as const;
export type StoreName = (typeof STORE_NAMES)[number];

export type MigrationSummary = {
  /** Objects found at the source. */
  found: number;
  copied: number;
  /** Already at the destination with the same SHA-256 (an earlier, interrupted run). */
  skipped: number;
  bytesCopied: number;
  failed: Array<{ key: string; error: string }>;
};

export type MigrationLine = { key: string; outcome: "copied" | "skipped" | "failed"; detail?: string };

/** Pure: the command line's stores, or the French reason it is refused. */
export function migrationStores(from: string | undefined, to: string | undefined): { from: StoreName; to: StoreName } | { error: string } {
  const known = (v: string | undefined): v is StoreName => (STORE_NAMES as readonly string[]).includes(v ?? "");
  if (!known(from)) return { error: `--from doit valoir ${STORE_NAMES.join(", ")} (reçu : ${from ?? "rien"}).` };
  if (!known(to)) return { error: `--to doit valoir ${STORE_NAMES.join(", ")} (reçu : ${to ?? "rien"}).` };
  if (from === to) return { error: "--from et --to doivent désigner deux stockages différents." };
  return { from, to };
}

export async function migrateObjects(source: StorageBackend, destination: StorageBackend, onObject: (line: MigrationLine) => void = () => undefined): Promise<MigrationSummary> {
  const summary: MigrationSummary = { found: 0, copied: 0, skipped: 0, bytesCopied: 0, failed: [] };
  for await (const key of source.listKeys()) {
    const contentType = contentTypeOfKey(key);
    if (!contentType) continue;
    summary.found += 1;
    try {
      const [have, want] = await Promise.all([destination.sha256Of(key), source.sha256Of(key)]);
      if (have !== null && have === want) {
        summary.skipped += 1;
        onObject({ key, outcome: "skipped" });
        continue;
      }
      // One object in memory at a time (at most the 20 MB upload limit): the source's own checks run as it is read.
      const stream = await source.openObject(key);
      if (!stream) throw new Error("disappeared from the source");
      const bytes = await readObjectStream(stream);
      const sha256 = sha256Hex(bytes);
      await destination.putObject(key, bytes, contentType);
      const back = await destination.openObject(key, { sha256 });
      if (!back) throw new Error("missing at the destination after the copy");
      const copy = await readObjectStream(back);
      if (sha256Hex(copy) !== sha256) throw new Error("the copy read back differs from the source");
      summary.copied += 1;
      summary.bytesCopied += bytes.byteLength;
      onObject({ key, outcome: "copied" });
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      summary.failed.push({ key, error: message });
      onObject({ key, outcome: "failed", detail: message });
    }
  }
  return summary;
}

/** The summary printed at the end of the command (French, for the operator). */
export function describeMigration(from: StoreName, to: StoreName, s: MigrationSummary): string {
  const mb = (s.bytesCopied / (1024 * 1024)).toFixed(1).replace(".", ",");
  const lines = [
    `Migration du stockage ${from} → ${to} :`,
    `  ${s.found} objet(s) à la source`,
    `  ${s.copied} copié(s) et vérifié(s) (${mb} Mo)`,
    `  ${s.skipped} déjà présent(s) à l’identique, ignoré(s)`,
    `  ${s.failed.length} en échec`,
  ];
  for (const f of s.failed) lines.push(`    - ${f.key} : ${f.error}`);
  lines.push(s.failed.length === 0 ? "Terminé : la source est intacte ; relancer la commande ne recopie rien." : "Relancez la commande : les objets déjà copiés seront ignorés.");
  return lines.join("\n");
}
