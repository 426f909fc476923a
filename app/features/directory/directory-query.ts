// The directory's query string, in a module without zod: the directory pages build their links
// with it, and the public directory's browser bundle stays free of zod.
import type { DirectoryQuery } from "./directory.schema";

export function directoryQueryString(q: Partial<DirectoryQuery>): string {
  const p = new URLSearchParams();
  if (q.q) p.set("q", q.q);
  if (q.departement) p.set("departement", q.departement);
  if (q.secteur) p.set("secteur", q.secteur);
  if (q.profession) p.set("profession", q.profession);
  if (q.page && q.page > 1) p.set("page", String(q.page));
  const s = p.toString();
  return s ? `?${s}` : "";
}
