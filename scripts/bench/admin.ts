// The admin tabs in the signed-in part of the benchmark (issue 17: "the pages added since
// (collaboration files, notifications, admin tabs)"). An administrator signs in with a TOTP code
// (requireAdminWithTwoFactor), so the bench:
// - creates administrators in its throwaway database, the way `npm run admin:create` does
//   (createOrPromoteAdmin), in its in-process step;
// - enrols each one's authenticator through the app's own settings form (/parametres/securite,
//   'enable-2fa' then 'verify-2fa'), reading the otpauth:// URI the page shows, as a member would
//   scan it;
// - signs each in through the sign-in form: password, then a code computed from that secret
//   (tests/support/totp.ts, the helper of the browser and integration suites).
// A code is accepted once per account and 30-second step (app/auth/totp-replay.server.ts): the
// statement count of each page is taken on a fresh session, so each page gets its own
// administrator (one sign-in each) instead of waiting for the next step of one account.
// The seed creates neither mediations nor an audit log: the bench adds them at scale, in its
// database only (seedBenchAdminData), so that the queue and the journal are measured non-empty.
import { sql } from "drizzle-orm";
import { db } from "~/db/client.server";
import { queryRows } from "~/db/query.server";
import { createOrPromoteAdmin } from "~/features/admin/create-admin.server";
import { demoLoginEmail, type DemoLoginKind } from "../seed-lib";
import { secretFromOtpauthUri, unusedTotpCode } from "../../tests/support/totp";
import type { MemberPage } from "./member";

export const BENCH_ADMIN_PASSWORD = "bench-admin-2026";

/** The bench's administrators: `admin-bench-0@…` measures, the others give fresh sessions. */
export function benchAdminEmail(index: number): string {
  return `admin-bench-${index}@bench.reseau-transmission.fr`;
}

/** One mediation for every MEDIATION_EVERY-th collaboration file (1 000 at 100 000 members). */
export const MEDIATION_EVERY = 10;

/**
 * Bench-only data of the admin tabs, written before VACUUM ANALYZE: a mediation (open or in
 * progress, with its opening message) on every tenth collaboration file that no demo persona is
 * in (their own pages are measured as before), and the audit log an admin team would have
 * written: one `profile.validate` per validated member, one `mediation.open` per mediation.
 */
export async function seedBenchAdminData(personas: readonly DemoLoginKind[] = ["fondateur", "premium", "freemium", "candidat"]) {
  const emails = personas.map((k) => demoLoginEmail(k));
  const [admin] = await queryRows<{ id: string }>(sql`select id from "user" where email = ${benchAdminEmail(0)}`);
  if (!admin) throw new Error("Administrateur du bench introuvable : createBenchAdmins d'abord.");
  const [m] = await queryRows<{ n: number }>(sql`
    with personas as (
      select p.id from profiles p join "user" u on u.id = p.user_id where u.email in (${sql.join(emails.map((e) => sql`${e}`), sql`, `)})
    ), chosen as (
      select f.id, f.member_a_id, f.member_b_id, f.created_at, row_number() over (order by f.created_at, f.id) as n
      from collaboration_files f
      where f.member_a_id is not null and f.member_b_id is not null
        and f.member_a_id not in (select id from personas) and f.member_b_id not in (select id from personas)
    ), inserted as (
      insert into mediations (file_id, opened_by, opened_by_name, respondent_id, respondent_name, subject, facts, status, created_at, updated_at)
      select c.id, a.id, a.first_name || ' ' || a.last_name, b.id, b.first_name || ' ' || b.last_name,
        'Désaccord sur la répartition des honoraires',
        'La convention d''honoraires signée prévoyait un partage à parts égales ; la facture reçue ne le respecte pas.',
        (case when c.n % 2 = 0 then 'open' else 'in_progress' end)::mediation_status,
        c.created_at + interval '20 days', c.created_at + interval '21 days'
      from chosen c join profiles a on a.id = c.member_a_id join profiles b on b.id = c.member_b_id
      where c.n % ${MEDIATION_EVERY} = 0
      returning id, opened_by, opened_by_name, created_at
    ), messages as (
      insert into mediation_messages (mediation_id, author_role, author_profile_id, author_name, body, created_at)
      select i.id, 'member', i.opened_by, i.opened_by_name, 'Je joins la convention signée et la facture reçue.', i.created_at
      from inserted i
    )
    select count(*)::int as n from inserted`);
  await db.execute(sql`
    insert into audit_log (actor_user_id, action, target_type, target_id, details, created_at)
    select ${admin.id}, 'profile.validate', 'profile', p.id::text, jsonb_build_object('target', p.first_name || ' ' || p.last_name), p.created_at + interval '1 day'
    from profiles p where p.profile_status = 'validated'`);
  await db.execute(sql`
    insert into audit_log (actor_user_id, action, target_type, target_id, details, created_at)
    select p.user_id, 'mediation.open', 'mediation', m.id::text, jsonb_build_object('subject', m.subject), m.created_at
    from mediations m join profiles p on p.id = m.opened_by`);
  const [a] = await queryRows<{ n: number }>(sql`select count(*)::int as n from audit_log`);
  return { mediations: m?.n ?? 0, auditEntries: a?.n ?? 0 };
}

/** `count` administrators (e-mail verified, argon2 password, admin role), as `npm run admin:create` creates them. */
export async function createBenchAdmins(count: number, password = BENCH_ADMIN_PASSWORD): Promise<string[]> {
  const emails = Array.from({ length: count }, (_, i) => benchAdminEmail(i));
  for (const email of emails) await createOrPromoteAdmin(db, { email, password });
  return emails;
}

/** What the in-process step finds for the admin pages before the server starts. */
export type AdminData = { applicantId: string | null; mediationId: string | null; commonWord: string };

export async function findAdminData(): Promise<AdminData> {
  const [applicant] = await queryRows<{ id: string }>(sql`
    select id from profiles where profile_status = 'pending_validation' order by created_at, id limit 1`);
  const [mediation] = await queryRows<{ id: string }>(sql`
    select id from mediations where status in ('open', 'in_progress') order by created_at, id limit 1`);
  const [word] = await queryRows<{ last_name: string }>(sql`
    select last_name from profiles group by last_name order by count(*) desc, last_name limit 1`);
  return { applicantId: applicant?.id ?? null, mediationId: mediation?.id ?? null, commonWord: word?.last_name ?? "martin" };
}

/** The admin tabs that show lists (app/routes.ts, under /admin), then one applicant's and one mediation's page. */
export function adminPages(data: AdminData): MemberPage[] {
  const pages: MemberPage[] = [
    { key: "adminProfiles", label: "/admin", path: "/admin" },
    { key: "adminApplicants", label: "/admin?statut=en-attente", path: "/admin?statut=en-attente" },
    { key: "adminProfilesQ", label: `/admin?q=${data.commonWord}`, path: `/admin?q=${encodeURIComponent(data.commonWord)}` },
  ];
  if (data.applicantId) pages.push({ key: "adminApplicant", label: "/admin?profil={candidat} (vérification, assurance)", path: `/admin?profil=${data.applicantId}` });
  pages.push(
    { key: "adminDeals", label: "/admin/deals", path: "/admin/deals" },
    { key: "adminRecommendations", label: "/admin/recommandations", path: "/admin/recommandations" },
    { key: "adminMediations", label: "/admin/mediations", path: "/admin/mediations" },
  );
  if (data.mediationId) pages.push({ key: "adminMediation", label: "/admin/mediations/{id}", path: `/admin/mediations/${data.mediationId}` });
  pages.push(
    { key: "adminRatings", label: "/admin/evaluations", path: "/admin/evaluations" },
    { key: "adminJournal", label: "/admin/journal", path: "/admin/journal" },
  );
  return pages;
}

const decodeEntities = (s: string) =>
  s.replace(/&(amp|lt|gt|quot|#39|#x27);/g, (_, e: string) => ({ amp: "&", lt: "<", gt: ">", quot: '"', "#39": "'", "#x27": "'" })[e] ?? "");

/** The otpauth:// URI the settings page shows while an enrolment waits for its first code. */
export function otpauthUriOf(html: string): string | null {
  const match = html.match(/data-testid="totp-uri"[^>]*>\s*(otpauth:\/\/[^<\s]+)\s*</);
  return match ? decodeEntities(match[1]!) : null;
}

const cookiesOf = (res: Response) => res.headers.getSetCookie().map((c) => c.split(";")[0]!);

/** Cookie header with `set` applied over `jar` (same name replaced, empty value removed). */
export function mergeCookies(jar: string, set: string[]): string {
  const map = new Map<string, string>();
  for (const c of [...jar.split(/;\s*/), ...set]) {
    const eq = c.indexOf("=");
    if (eq < 1) continue;
    map.set(c.slice(0, eq).trim(), c.slice(eq + 1));
  }
  return [...map].filter(([, v]) => v !== "").map(([k, v]) => `${k}=${v}`).join("; ");
}

async function post(baseUrl: string, pagePath: string, cookie: string, form: Record<string, string>) {
  const res = await fetch(`${baseUrl}${pagePath}`, {
    method: "POST",
    redirect: "manual",
    headers: { "content-type": "application/x-www-form-urlencoded", origin: baseUrl, accept: "text/html", ...(cookie ? { cookie } : {}) },
    body: new URLSearchParams(form),
  });
  await res.arrayBuffer();
  return res;
}

/**
 * Enrols the administrator's authenticator through /parametres/securite (password, then the first code of
 * the secret the page shows); returns the base32 secret.
 */
export async function enrolTwoFactor(baseUrl: string, email: string, password = BENCH_ADMIN_PASSWORD): Promise<string> {
  const signIn = await post(baseUrl, "/auth", "", { intent: "sign-in", email, password });
  let cookie = mergeCookies("", cookiesOf(signIn));
  if (signIn.status >= 400 || !cookie) throw new Error(`Connexion de ${email} impossible : HTTP ${signIn.status}`);
  const start = await post(baseUrl, "/parametres/securite", cookie, { intent: "enable-2fa", password });
  if (start.status >= 400) throw new Error(`Activation de la double authentification de ${email} : HTTP ${start.status}`);
  cookie = mergeCookies(cookie, cookiesOf(start));
  const page = await fetch(`${baseUrl}/parametres/securite`, { headers: { cookie, accept: "text/html" } });
  const uri = otpauthUriOf(await page.text());
  if (!uri) throw new Error(`Clé de la double authentification de ${email} introuvable sur /parametres/securite (HTTP ${page.status}).`);
  const secret = secretFromOtpauthUri(uri);
  const verify = await post(baseUrl, "/parametres/securite", cookie, { intent: "verify-2fa", code: await unusedTotpCode(secret) });
  if (verify.status >= 400) throw new Error(`Premier code de ${email} refusé : HTTP ${verify.status}`);
  return secret;
}

/** Signs an administrator in through the sign-in form: password, then a TOTP code; returns the Cookie header. */
export async function signInWithTotp(baseUrl: string, email: string, secret: string, password = BENCH_ADMIN_PASSWORD): Promise<string> {
  const first = await post(baseUrl, "/auth", "", { intent: "sign-in", email, password });
  const pending = mergeCookies("", cookiesOf(first));
  if (first.status >= 400 || !/etape=2fa/.test(first.headers.get("location") ?? "")) {
    throw new Error(`Connexion de ${email} : la double authentification n'a pas été demandée (HTTP ${first.status}).`);
  }
  const second = await post(baseUrl, "/auth", pending, { intent: "two-factor", method: "totp", code: await unusedTotpCode(secret) });
  const cookie = mergeCookies(pending, cookiesOf(second));
  if (second.status >= 400 || !/session_token=/.test(cookie)) throw new Error(`Code TOTP de ${email} refusé : HTTP ${second.status}`);
  return cookie;
}

/** Enrols then signs in an administrator: a fresh session, through the app's own forms. */
export async function adminSession(baseUrl: string, email: string): Promise<string> {
  return signInWithTotp(baseUrl, email, await enrolTwoFactor(baseUrl, email));
}
