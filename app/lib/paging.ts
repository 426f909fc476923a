// Server-side paging of a list: the page a URL asks for (`?page=`) and what a page of a counted
// list is. Pure: services and routes share it.

/** The `?page=` of a request URL, 1 when absent or not a positive integer (never trusted beyond 10 000). */
export function requestedPage(url: string | URL): number {
  const raw = new URL(url).searchParams.get("page") ?? "1";
  const n = /^\d{1,6}$/.test(raw) ? Number(raw) : 1;
  return Math.min(Math.max(1, n), 10_000);
}

export type PageWindow = { page: number; pageCount: number; total: number; limit: number; offset: number };

/** The page asked for, brought back within the list (past the last page: the last one). */
export function pageWindow(requested: number, total: number, size: number): PageWindow {
  const pageCount = Math.max(1, Math.ceil(total / size));
  const page = Math.min(Math.max(1, Math.floor(requested) || 1), pageCount);
  return { page, pageCount, total, limit: size, offset: (page - 1) * size };
}

/** The URL of page `page` of `path`, other search parameters kept (page 1: no parameter). */
export function pageHref(path: string, page: number, search = ""): string {
  const params = new URLSearchParams(search);
  if (page > 1) params.set("page", String(page));
  else params.delete("page");
  const q = params.toString();
  return q ? `${path}?${q}` : path;
}
