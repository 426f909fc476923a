// The signed-in part of the benchmark: the pages members use all day, measured as a browser of a
// seeded member asks for them (session cookie, compressed), side by side with a saved copy of the
// member's /dashboard served as a static file by the same process (the baseline).
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { PDFDocument, StandardFonts } from "pdf-lib";
import { sql } from "drizzle-orm";
import { queryRows } from "~/db/query.server";
import { demoLoginEmail, DEFAULT_DEMO_PASSWORD, type DemoLoginKind } from "../seed-lib";
import { queryLogHeader } from "./explain";
import { fetchMedian, type Fetched } from "./http";
import { failedRequests, runLoad, type LoadResult } from "./load";
import { adminPages, adminSession, benchAdminEmail, type AdminData } from "./admin";
import { dataPath } from "./navigation";
import type { LargeFileData } from "./large-file";

export { dataPath };

export type MemberPage = { key: string; label: string; path: string };

/** What the in-process step finds for a persona before the server starts. */
export type PersonaData = { kind: DemoLoginKind; email: string; fileId: string | null; mandateId: string | null; commonWord: string };

/** The persona's first collaboration file and active mandate (the seed gives the first pair of mandates to the founding and premium personas). */
export async function findPersonaData(kind: DemoLoginKind, seed = 1): Promise<PersonaData> {
  const email = demoLoginEmail(kind, seed);
  const [row] = await queryRows<{ profile_id: string; file_id: string | null; mandate_id: string | null }>(sql`
    select p.id as profile_id,
      (select f.id from collaboration_files f where f.member_a_id = p.id or f.member_b_id = p.id
        order by f.last_activity_at desc limit 1) as file_id,
      (select m.id from mandates m where m.profile_id = p.id and m.status = 'active' order by m.created_at limit 1) as mandate_id
    from profiles p join "user" u on u.id = p.user_id where u.email = ${email}`);
  if (!row) throw new Error(`Persona ${email} introuvable : le seed l'a-t-il créée ?`);
  const [word] = await queryRows<{ last_name: string }>(sql`
    select last_name from profiles where profile_status = 'validated' group by last_name order by count(*) desc, last_name limit 1`);
  return { kind, email, fileId: row.file_id, mandateId: row.mandate_id, commonWord: word?.last_name ?? "martin" };
}

/** Signs a persona in through the sign-in form, as a browser does; returns the Cookie header. */
export async function signInCookie(baseUrl: string, email: string, password = DEFAULT_DEMO_PASSWORD): Promise<string> {
  const res = await fetch(`${baseUrl}/auth`, {
    method: "POST",
    redirect: "manual",
    headers: { "content-type": "application/x-www-form-urlencoded", origin: baseUrl, accept: "text/html" },
    body: new URLSearchParams({ intent: "sign-in", email, password }),
  });
  await res.arrayBuffer();
  const cookies = res.headers.getSetCookie().map((c) => c.split(";")[0]);
  if (res.status >= 400 || cookies.length === 0) throw new Error(`Connexion de ${email} impossible : HTTP ${res.status}`);
  return cookies.join("; ");
}

async function benchPdf(): Promise<Uint8Array> {
  const pdf = await PDFDocument.create();
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  for (let i = 1; i <= 3; i++) {
    const page = pdf.addPage();
    page.drawText(`Memorandum d'information - page ${i}`, { x: 50, y: 760, size: 16, font });
    for (let line = 0; line < 40; line++) page.drawText(`Ligne ${line + 1} : chiffres clés, effectifs, bail, clientèle.`, { x: 50, y: 720 - line * 16, size: 10, font });
  }
  return pdf.save();
}

/** Shares a three-page PDF in the file through the documents form; returns its download path. */
export async function shareBenchDocument(baseUrl: string, cookie: string, fileId: string): Promise<string> {
  const base = `/dashboard/dossiers/${fileId}/documents`;
  const form = new FormData();
  form.set("file", new Blob([Buffer.from(await benchPdf())], { type: "application/pdf" }), "memorandum-bench.pdf");
  const res = await fetch(`${baseUrl}${base}`, { method: "POST", redirect: "manual", headers: { cookie, origin: baseUrl }, body: form });
  await res.arrayBuffer();
  if (res.status >= 400) throw new Error(`Dépôt du document de mesure impossible : HTTP ${res.status}`);
  const page = await fetch(`${baseUrl}${base}`, { headers: { cookie, accept: "text/html" } });
  const html = await page.text();
  const match = html.match(new RegExp(`${base}/([0-9a-f-]{36})`));
  if (!match) throw new Error("Document de mesure introuvable dans la liste des documents.");
  return `${base}/${match[1]}?mode=view`;
}

/** The pages of a signed-in member, in the order of the table. */
export function memberPages(data: PersonaData, documentPath: string | null): MemberPage[] {
  const pages: MemberPage[] = [
    { key: "dashboard", label: "/dashboard", path: "/dashboard" },
    { key: "directory", label: "/dashboard/annuaire", path: "/dashboard/annuaire" },
    { key: "directoryQ", label: `/dashboard/annuaire?q=${data.commonWord}`, path: `/dashboard/annuaire?q=${encodeURIComponent(data.commonWord)}` },
    { key: "stats", label: "/dashboard/stats", path: "/dashboard/stats" },
    { key: "messages", label: "/dashboard/messages", path: "/dashboard/messages" },
    { key: "profile", label: "/dashboard/profil", path: "/dashboard/profil" },
    { key: "notifications", label: "/dashboard/notifications", path: "/dashboard/notifications" },
    { key: "mandates", label: "/mandates", path: "/mandates" },
    { key: "opportunities", label: "/mandates?onglet=opportunites", path: "/mandates?onglet=opportunites" },
    // The settings' pages (issue 30), each with its own loader.
    { key: "settings", label: "/parametres", path: "/parametres" },
    { key: "settingsSecurity", label: "/parametres/securite", path: "/parametres/securite" },
    { key: "settingsNotifications", label: "/parametres/notifications", path: "/parametres/notifications" },
    { key: "settingsData", label: "/parametres/donnees", path: "/parametres/donnees" },
    { key: "settingsInsurance", label: "/parametres/assurance", path: "/parametres/assurance" },
    { key: "settingsBilling", label: "/parametres/facturation", path: "/parametres/facturation" },
  ];
  if (data.mandateId) pages.push({ key: "matching", label: "/mandates?matching=…", path: `/mandates?matching=${data.mandateId}` });
  pages.push({ key: "files", label: "/dashboard/dossiers", path: "/dashboard/dossiers" });
  if (data.fileId) {
    pages.push({ key: "file", label: "/dashboard/dossiers/{id}", path: `/dashboard/dossiers/${data.fileId}` });
    pages.push({ key: "fileDocuments", label: "/dashboard/dossiers/{id}/documents", path: `/dashboard/dossiers/${data.fileId}/documents` });
    pages.push({ key: "fileEvaluation", label: "/dashboard/dossiers/{id}/evaluation", path: `/dashboard/dossiers/${data.fileId}/evaluation` });
    pages.push({ key: "fileMediation", label: "/dashboard/dossiers/{id}/mediation", path: `/dashboard/dossiers/${data.fileId}/mediation` });
    pages.push({ key: "fileDueDiligence", label: "/dashboard/dossiers/{id}/diligences", path: `/dashboard/dossiers/${data.fileId}/diligences` });
    pages.push({ key: "fileParticipants", label: "/dashboard/dossiers/{id}/intervenants", path: `/dashboard/dossiers/${data.fileId}/intervenants` });
    pages.push({ key: "conversation", label: "/dashboard/messages/{conversation du dossier}", path: `/dashboard/messages/dossier-${data.fileId}` });
  }
  if (documentPath) pages.push({ key: "document", label: "document PDF filigrané (3 pages)", path: documentPath });
  return pages;
}

/**
 * Issue 28 §4's targets, as ratios to the static copy measured in the same run: a page rendered
 * as a document, and its `.data` navigation.
 */
export const MEMBER_TARGETS = {
  document: { medianRatioMax: 6, throughputRatioMin: 0.1 },
  data: { medianRatioMax: 3, throughputRatioMin: 0.25 },
  queriesMax: 6,
} as const;

/** The targets in words, for the reports. */
export function memberTargetsText(): string {
  const t = (x: { medianRatioMax: number; throughputRatioMin: number }) => `médiane ≤ ${x.medianRatioMax} × la copie statique, débit ≥ ${x.throughputRatioMin * 100} % du sien`;
  return `document : ${t(MEMBER_TARGETS.document)} ; navigation .data : ${t(MEMBER_TARGETS.data)} ; 0 erreur`;
}

/** A demo persona's tier, "admin" for the bench's administrators, or a member and a guest of the large file. */
export type MemberTier = DemoLoginKind | "admin" | "grand dossier" | "invité";
/** `data`: the `.data` request React Router's client sends to navigate to the page (single fetch). */
export type MemberRow = { tier: MemberTier; page: MemberPage; median: Fetched; load: LoadResult; queries: number | null; data: { median: Fetched; load: LoadResult } | null };

export type MemberResults = {
  staticMedian: Fetched;
  staticLoad: LoadResult;
  rows: MemberRow[];
  options: { durationS: number; connections: number; medianRuns: number };
};

const MEDIAN_RUNS = 15;
export const MEMBER_STATIC_PATH = "/bench-static-member.html";

/**
 * Signs each persona in, shares a PDF in the premium persona's file, saves the premium
 * persona's /dashboard as a static file (served by the same process, the baseline), then
 * measures every page: median of 15 sequential requests (after 15 unmeasured ones), then autocannon.
 */
export async function measureMemberPages(
  baseUrl: string,
  personas: PersonaData[],
  options: { durationS: number; connections: number; staticFile: string },
  step: (line: string) => void,
  admin: AdminData | null = null,
  large: LargeFileData | null = null,
): Promise<MemberResults> {
  const [premium, ...others] = personas;
  const cookies = new Map<DemoLoginKind, string>();
  for (const p of personas) cookies.set(p.kind, await signInCookie(baseUrl, p.email));
  const premiumCookie = cookies.get(premium.kind)!;
  const documentPath = premium.fileId ? await shareBenchDocument(baseUrl, premiumCookie, premium.fileId) : null;

  const dashboard = await fetch(`${baseUrl}/dashboard`, { headers: { cookie: premiumCookie, accept: "text/html" }, redirect: "manual" });
  if (dashboard.status !== 200) throw new Error(`/dashboard (connecté) : HTTP ${dashboard.status}`);
  mkdirSync(path.dirname(options.staticFile), { recursive: true });
  writeFileSync(options.staticFile, await dashboard.text());

  // `who`: the member's session for the median and the load, and how to open a fresh one for the
  // statement count, which is taken on a fresh session's first request: the guard cache (decision
  // 020) holds nothing for it yet, as for a member who comes back after more than SESSION_CACHE_TTL_MS.
  const measure = async (label: string, pagePath: string, who?: { cookie: string; fresh: () => Promise<string> }, navigable = true) => {
    const headers: Record<string, string> = who ? { cookie: who.cookie } : {};
    // Warm-up, not measured: the page's code is compiled by V8 on its first requests (a live
    // server's is hot), which made the first page measured after a start pay for it.
    await fetchMedian(`${baseUrl}${pagePath}`, MEDIAN_RUNS, headers);
    const median = await fetchMedian(`${baseUrl}${pagePath}`, MEDIAN_RUNS, headers);
    if (median.status !== 200) throw new Error(`${label} : HTTP ${median.status}`);
    // After the first document, a browser navigates with the page's `.data` request.
    let data: MemberRow["data"] = null;
    if (who && navigable) {
      const dataHeaders = { ...headers, accept: "*/*" };
      const dataUrl = dataPath(pagePath);
      const dataMedian = await fetchMedian(`${baseUrl}${dataUrl}`, MEDIAN_RUNS, dataHeaders);
      if (dataMedian.status !== 200) throw new Error(`${label} .data : HTTP ${dataMedian.status}`);
      step(`autocannon ${label} .data : ${options.durationS} s, ${options.connections} connexions…`);
      const dataLoad = await runLoad({ baseUrl, paths: [dataUrl], label: `${label} (.data)`, connections: options.connections, durationS: options.durationS, headers: dataHeaders });
      data = { median: dataMedian, load: dataLoad };
    }
    // The server runs with QUERY_STATS: each response says how many statements it took.
    // and (QUERY_LOG) logs them for the EXPLAIN step once the server has stopped.
    const countHeaders: Record<string, string> = who ? { cookie: await who.fresh() } : {};
    const one = await fetch(`${baseUrl}${pagePath}`, { headers: { ...countHeaders, accept: "text/html", ...queryLogHeader(label) } });
    await one.arrayBuffer();
    const counted = one.headers.get("x-query-count");
    const queries = counted === null ? null : Number(counted);
    step(`autocannon ${label} : ${options.durationS} s, ${options.connections} connexions…`);
    const load = await runLoad({ baseUrl, paths: [pagePath], label, connections: options.connections, durationS: options.durationS, headers });
    return { median, load, queries, data };
  };
  const baseline = await measure("copie statique de /dashboard", MEMBER_STATIC_PATH);
  const rows: MemberRow[] = [];
  for (const page of memberPages(premium, documentPath)) {
    const r = await measure(`${page.label} (premium)`, page.path, { cookie: premiumCookie, fresh: () => signInCookie(baseUrl, premium.email) }, page.key !== "document");
    rows.push({ tier: premium.kind, page, ...r });
  }
  // The other tiers: the pages whose content depends on the tier.
  for (const p of others) {
    for (const page of memberPages(p, null).filter((pg) => ["dashboard", "mandates", "files"].includes(pg.key))) {
      const r = await measure(`${page.label} (${p.kind})`, page.path, { cookie: cookies.get(p.kind)!, fresh: () => signInCookie(baseUrl, p.email) });
      rows.push({ tier: p.kind, page, ...r });
    }
  }
  // The large file (8 participants, 500 documents, 300 due-diligence requests), as one of its
  // members, then as its guest participant through the shared files' pages.
  if (large) {
    const cookie = await signInCookie(baseUrl, large.memberEmail);
    const base = `/dashboard/dossiers/${large.fileId}`;
    const pages: MemberPage[] = [
      { key: "largeFile", label: "grand dossier : /dashboard/dossiers/{id}", path: base },
      { key: "largeDocuments", label: "grand dossier : …/documents (500)", path: `${base}/documents` },
      { key: "largeDueDiligence", label: "grand dossier : …/diligences (300)", path: `${base}/diligences` },
      { key: "largeParticipants", label: "grand dossier : …/intervenants (8)", path: `${base}/intervenants` },
    ];
    for (const page of pages) {
      const r = await measure(page.label, page.path, { cookie, fresh: () => signInCookie(baseUrl, large.memberEmail) });
      rows.push({ tier: "grand dossier", page, ...r });
    }
    const guest = await signInCookie(baseUrl, large.guestEmail);
    const shared: MemberPage[] = [
      { key: "sharedFiles", label: "/dossiers-partages", path: "/dossiers-partages" },
      { key: "sharedFile", label: "/dossiers-partages/{id} (grand dossier)", path: `/dossiers-partages/${large.fileId}` },
    ];
    for (const page of shared) {
      const r = await measure(`${page.label} (invité)`, page.path, { cookie: guest, fresh: () => signInCookie(baseUrl, large.guestEmail) });
      rows.push({ tier: "invité", page, ...r });
    }
  }
  // The admin tabs: administrator 0 for the median and the load, administrator k (enrolled and
  // signed in with a TOTP code just before) for the k-th page's fresh session.
  if (admin) {
    step("Administrateurs : double authentification et connexion par code TOTP…");
    const adminCookie = await adminSession(baseUrl, benchAdminEmail(0));
    let next = 1;
    for (const page of adminPages(admin)) {
      const email = benchAdminEmail(next++);
      const r = await measure(`${page.label} (admin)`, page.path, { cookie: adminCookie, fresh: () => adminSession(baseUrl, email) });
      rows.push({ tier: "admin", page, ...r });
    }
  }
  return { staticMedian: baseline.median, staticLoad: baseline.load, rows, options: { ...options, medianRuns: MEDIAN_RUNS } };
}

/** Ratios of a row to the static copy, and whether the targets hold (`data`: the `.data` navigation). */
export function memberVerdict(results: MemberResults, row: MemberRow) {
  const ratios = (median: Fetched, load: LoadResult, target: { medianRatioMax: number; throughputRatioMin: number }) => {
    const medianRatio = median.totalMs / results.staticMedian.totalMs;
    const throughputRatio = load.reqPerSec / results.staticLoad.reqPerSec;
    const ok = medianRatio <= target.medianRatioMax && throughputRatio >= target.throughputRatioMin && failedRequests(load) === 0;
    return { medianRatio, throughputRatio, ok };
  };
  const queriesOk = row.queries !== null && row.queries <= MEMBER_TARGETS.queriesMax;
  return {
    ...ratios(row.median, row.load, MEMBER_TARGETS.document),
    queriesOk,
    data: row.data ? ratios(row.data.median, row.data.load, MEMBER_TARGETS.data) : null,
  };
}
