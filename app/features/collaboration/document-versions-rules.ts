// Versions of a shared document: one logical document, versions 1…n, the earlier
// ones kept and listed under the latest. Pure: the lists, the archive and the tests read them.

/** A stored row as the lists read it: its own id, its first version's id (null on that one), its number. */
export type VersionRow = { id: string; lineageId: string | null; version: number };

/** The logical document a row belongs to: its first version's id. */
export function lineageOf(row: Pick<VersionRow, "id" | "lineageId">): string {
  return row.lineageId ?? row.id;
}

/**
 * Rows grouped by logical document: the latest version first in each group, the earlier ones
 * after it (newest first); groups keep the order in which their latest version came.
 */
export function groupVersions<T extends VersionRow>(rows: readonly T[]): { latest: T; earlier: T[] }[] {
  const groups = new Map<string, T[]>();
  for (const row of rows) {
    const key = lineageOf(row);
    const group = groups.get(key);
    if (group) group.push(row);
    else groups.set(key, [row]);
  }
  const out = [...groups.values()].map((group) => {
    const sorted = [...group].sort((a, b) => b.version - a.version);
    return { latest: sorted[0] as T, earlier: sorted.slice(1) };
  });
  const position = new Map(rows.map((r, i) => [r.id, i]));
  return out.sort((a, b) => (position.get(a.latest.id) ?? 0) - (position.get(b.latest.id) ?? 0));
}

export type VersionRefusal = "closed" | "not-found" | "no-right" | "not-latest" | "withdrawn";

/** Why a new version of this document may not be added now, or null when it may. */
export function versionRefusal(input: { closed: boolean; visible: boolean; mayDeposit: boolean; superseded: boolean; withdrawn: boolean }): VersionRefusal | null {
  if (!input.visible) return "not-found";
  if (input.closed) return "closed";
  if (!input.mayDeposit) return "no-right";
  if (input.withdrawn) return "withdrawn";
  if (input.superseded) return "not-latest";
  return null;
}

export const VERSION_MESSAGES: Record<VersionRefusal, string> & { added: string; label: (n: number) => string } = {
  closed: "Ce dossier est clos\u00a0: il n’est plus possible d’y déposer une nouvelle version.",
  "not-found": "Ce document n’existe pas ou n’est plus partagé.",
  "no-right": "Vos droits dans ce dossier ne vous permettent pas de déposer une nouvelle version de ce document.",
  "not-latest": "Une version plus récente de ce document existe déjà\u00a0: rechargez la page.",
  withdrawn: "Ce document a été retiré\u00a0: partagez-le à nouveau.",
  added: "Nouvelle version déposée",
  label: (n: number) => `version\u00a0${n}`,
};

/** The archive folder of a logical document, and the entry name of one of its versions. */
export function versionEntryName(version: number, name: string): string {
  return `v${version}-${name}`;
}
