// The /mandates page keeps its state in the URL (tab, filter, open dialog), so that links, reload,
// the back button and JavaScript-less browsers all work. Client-safe helpers.

/** Parameters that survive opening and closing a dialog. */
const PERSISTENT = ["onglet", "filtre"] as const;

/** Search parameters that open a dialog. */
export const DIALOG_PARAMS = ["nouveau", "modifier", "details", "supprimer", "matching", "demande", "mandat"] as const;

/** A /mandates URL keeping the tab and filter of `current`, with `set` applied (null removes). */
export function mandatesHref(current: URLSearchParams | string, set: Record<string, string | null> = {}): string {
  const from = typeof current === "string" ? new URLSearchParams(current) : current;
  const next = new URLSearchParams();
  for (const key of PERSISTENT) {
    const v = from.get(key);
    if (v) next.set(key, v);
  }
  for (const [key, value] of Object.entries(set)) {
    if (value === null) next.delete(key);
    else next.set(key, value);
  }
  const qs = next.toString();
  return qs ? `/mandates?${qs}` : "/mandates";
}

/** Only a /mandates URL may be a redirect target after an action. */
export function safeMandatesReturn(value: unknown): string {
  if (typeof value !== "string") return "/mandates";
  if (!/^\/mandates(\?[^#\s]*)?$/.test(value)) return "/mandates";
  return value;
}
