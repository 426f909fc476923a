// The session mix: simulated members who sign in through the form, open the overview as a
// document, then navigate with the `.data` requests React Router's client sends, send a message,
// open a watermarked PDF and submit a mandate edit. Concurrency is ramped until one step's p95
// passes the limit; the highest passing level is what one instance sustains.
import { readdirSync, readFileSync } from "node:fs";
import { sql } from "drizzle-orm";
import { queryRows } from "~/db/query.server";
import { DEFAULT_DEMO_PASSWORD } from "../seed-lib";
import { mergeCookies } from "./admin";
import { percentile } from "./load";
import { dataPath, formFields, navigationData, type ManifestRoute } from "./navigation";
import { BROWSER_ACCEPT_ENCODING } from "./http";
import { shareBenchDocument } from "./member";

/** A member the mix signs in as: a validated member party to a file, with an active mandate. */
export type SessionMember = { email: string; fileId: string; mandateId: string; commonWord: string };

/** Validated paying members party to an open collaboration file (documents and messages allowed), each with an active mandate (`count` at most). */
export async function findSessionMembers(count: number): Promise<SessionMember[]> {
  const openFile = sql`(f.member_a_id = p.id or f.member_b_id = p.id) and f.member_a_id is not null and f.member_b_id is not null
    and f.stage not in ('concluded', 'abandoned')`;
  const rows = await queryRows<{ email: string; file_id: string; mandate_id: string }>(sql`
    select u.email,
      (select f.id from collaboration_files f where ${openFile} order by f.last_activity_at desc limit 1) as file_id,
      (select m.id from mandates m where m.profile_id = p.id and m.status = 'active' order by m.created_at limit 1) as mandate_id
    from profiles p join "user" u on u.id = p.user_id
    where p.profile_status = 'validated' and p.membership_type <> 'freemium'
      and exists (select 1 from collaboration_files f where ${openFile})
      and exists (select 1 from mandates m where m.profile_id = p.id and m.status = 'active')
    order by p.created_at, p.id
    limit ${count}`);
  const [word] = await queryRows<{ last_name: string }>(sql`
    select last_name from profiles where profile_status = 'validated' group by last_name order by count(*) desc, last_name limit 1`);
  return rows.map((r) => ({ email: r.email, fileId: r.file_id, mandateId: r.mandate_id, commonWord: word?.last_name ?? "martin" }));
}

export type StepKind = "form" | "document" | "navigation" | "action" | "revalidation" | "file";
/** One request of a session. `from`: the page the member is on (for a navigation's `_routes`). */
export type SessionStep = { key: string; label: string; kind: StepKind; path: string; from?: string; body?: URLSearchParams };

/** What the preparation found for one member: the PDF to open, the forms to post. */
export type PreparedMember = SessionMember & { documentPath: string; replyFields: URLSearchParams; mandateFields: URLSearchParams; signInFields: URLSearchParams };

/** The conversation of a collaboration file (its thread, which both members can answer). */
export const fileConversation = (fileId: string) => `/dashboard/messages/dossier-${fileId}`;

export const SESSION_MESSAGE = "Point d’étape : je vous transmets les éléments demain matin.";

/** The steps of one session, in the order a member takes them. */
export function sessionSteps(m: PreparedMember): SessionStep[] {
  const file = `/dashboard/dossiers/${m.fileId}`;
  const conversation = fileConversation(m.fileId);
  const search = `/dashboard/annuaire?q=${encodeURIComponent(m.commonWord)}`;
  const edit = `/mandates?modifier=${m.mandateId}`;
  const reply = new URLSearchParams(m.replyFields);
  reply.set("message", SESSION_MESSAGE);
  const signIn = new URLSearchParams(m.signInFields);
  signIn.set("email", m.email);
  signIn.set("password", DEFAULT_DEMO_PASSWORD);
  return [
    { key: "signIn", label: "connexion (formulaire)", kind: "form", path: "/auth", body: signIn },
    { key: "dashboard", label: "/dashboard (document)", kind: "document", path: "/dashboard" },
    { key: "directory", label: "/dashboard/annuaire", kind: "navigation", path: "/dashboard/annuaire", from: "/dashboard" },
    { key: "search", label: "/dashboard/annuaire?q=…", kind: "navigation", path: search, from: "/dashboard/annuaire" },
    { key: "mandates", label: "/mandates", kind: "navigation", path: "/mandates", from: search },
    { key: "matching", label: "/mandates?matching=…", kind: "navigation", path: `/mandates?matching=${m.mandateId}`, from: "/mandates" },
    { key: "file", label: "/dashboard/dossiers/{id}", kind: "navigation", path: file, from: `/mandates?matching=${m.mandateId}` },
    { key: "documents", label: "/dashboard/dossiers/{id}/documents", kind: "navigation", path: `${file}/documents`, from: file },
    { key: "pdf", label: "document PDF filigrané", kind: "file", path: m.documentPath },
    { key: "messages", label: "/dashboard/messages", kind: "navigation", path: "/dashboard/messages", from: `${file}/documents` },
    { key: "conversation", label: "/dashboard/messages/{conversation}", kind: "navigation", path: conversation, from: "/dashboard/messages" },
    { key: "send", label: "envoi d'un message (action .data)", kind: "action", path: conversation, body: reply },
    { key: "sendReload", label: "conversation rechargée après l'envoi", kind: "revalidation", path: conversation },
    { key: "edit", label: "/mandates?modifier=… (formulaire)", kind: "navigation", path: edit, from: conversation },
    { key: "editSave", label: "modification du mandat (action .data)", kind: "action", path: edit, body: m.mandateFields },
    { key: "editReload", label: "/mandates rechargée après l'enregistrement", kind: "revalidation", path: "/mandates" },
  ];
}

/** The URL a step requests. */
export function stepUrl(step: SessionStep, routes: readonly ManifestRoute[]): string | null {
  switch (step.kind) {
    case "navigation":
      return navigationData(routes, step.from ?? "/", step.path).url;
    case "action":
    case "revalidation":
      return dataPath(step.path);
    default:
      return step.path;
  }
}

const cookiesOf = (res: Response) => res.headers.getSetCookie().map((c) => c.split(";")[0]!);

async function signedIn(baseUrl: string, email: string, fields?: URLSearchParams): Promise<string> {
  const body = new URLSearchParams(fields ?? { intent: "sign-in" });
  body.set("email", email);
  body.set("password", DEFAULT_DEMO_PASSWORD);
  const res = await fetch(`${baseUrl}/auth`, {
    method: "POST",
    redirect: "manual",
    headers: { "content-type": "application/x-www-form-urlencoded", origin: baseUrl, accept: "text/html" },
    body,
  });
  await res.arrayBuffer();
  const jar = mergeCookies("", cookiesOf(res));
  if (res.status >= 400 || !jar) throw new Error(`Connexion de ${email} impossible : HTTP ${res.status}`);
  return jar;
}

async function page(baseUrl: string, pagePath: string, cookie: string): Promise<string> {
  const res = await fetch(`${baseUrl}${pagePath}`, { headers: { cookie, accept: "text/html" } });
  if (res.status !== 200) throw new Error(`${pagePath} : HTTP ${res.status}`);
  return res.text();
}

/** Signs each member in once, shares a PDF in their file, reads the forms the mix posts. */
export async function prepareSessionMembers(baseUrl: string, members: SessionMember[]): Promise<PreparedMember[]> {
  const signInFields = formFields(await (await fetch(`${baseUrl}/auth`, { headers: { accept: "text/html" } })).text(), "sign-in");
  const prepared: PreparedMember[] = [];
  for (const m of members) {
    const cookie = await signedIn(baseUrl, m.email, signInFields);
    const documentPath = await shareBenchDocument(baseUrl, cookie, m.fileId);
    const replyFields = formFields(await page(baseUrl, fileConversation(m.fileId), cookie), "reply");
    const mandateFields = formFields(await page(baseUrl, `/mandates?modifier=${m.mandateId}`, cookie), "update");
    prepared.push({ ...m, documentPath, replyFields, mandateFields, signInFields });
  }
  return prepared;
}

export type StepTimes = Record<string, number[]>;
export type LevelResult = {
  concurrency: number;
  durationS: number;
  sessions: number;
  requests: number;
  errors: number;
  errorKinds: Record<string, number>;
  steps: Record<string, { p50: number; p95: number; count: number }>;
  sessionsPerSec: number;
  requestsPerSec: number;
  /** Highest resident size of the server sampled during the level (MB). */
  rssMb: number | null;
};

/** p50 and p95 of each step's times. */
export function summarizeSteps(times: StepTimes): LevelResult["steps"] {
  const out: LevelResult["steps"] = {};
  for (const [key, xs] of Object.entries(times)) {
    const sorted = [...xs].sort((a, b) => a - b);
    out[key] = { p50: percentile(sorted, 50), p95: percentile(sorted, 95), count: sorted.length };
  }
  return out;
}

/** A level passes when it completed sessions without error and every step's p95 is under the limit. */
export function levelPasses(level: Pick<LevelResult, "errors" | "sessions" | "steps">, limitMs: number): boolean {
  const steps = Object.values(level.steps);
  return level.errors === 0 && level.sessions > 0 && steps.length > 0 && steps.every((s) => s.p95 < limitMs);
}

/**
 * The ramp: levels are tried in order, at least `minLevels` of them (the throughput under
 * saturation is worth reporting too), then it stops at the first that fails. Returns the highest
 * level passing with every level below it (null when the first fails) and the next to try.
 */
export function rampDecision(
  done: ReadonlyArray<Pick<LevelResult, "concurrency" | "errors" | "sessions" | "steps">>,
  limitMs: number,
  levels: readonly number[],
  minLevels = 3,
) {
  let best: number | null = null;
  let failed = false;
  for (const l of done) {
    if (!levelPasses(l, limitMs)) failed = true;
    if (!failed) best = l.concurrency;
  }
  const next = failed && done.length >= minLevels ? null : (levels.find((c) => c > (done.at(-1)?.concurrency ?? 0)) ?? null);
  return { best, next };
}

export const RAMP_LEVELS = [1, 2, 4, 6, 8, 12, 16, 24, 32] as const;

/** The redirect a single-fetch action answered with (turbo-stream), if any. */
export function actionRedirect(body: string): string | null {
  const m = /"redirect",(?:"[^"]*",)*?"(\/[^"]*)"/.exec(body);
  return m ? m[1]!.split("#")[0]! : null;
}

/** Resident size (MB) of the largest process in the server's process group (the node server). */
export function groupRssMb(pgid: number): number | null {
  let max = 0;
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      if (Number(fields[2]) !== pgid) continue;
      const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${entry}/status`, "utf8"));
      if (m) max = Math.max(max, Number(m[1]));
    } catch {
      // The process ended in between.
    }
  }
  return max ? max / 1024 : null;
}

/** Runs `concurrency` members in a loop for `durationS`: each session is every step in turn. */
export async function runSessionLevel(options: {
  baseUrl: string;
  members: PreparedMember[];
  routes: readonly ManifestRoute[];
  concurrency: number;
  durationS: number;
  pgid: number | undefined;
  stopped: () => boolean;
}): Promise<LevelResult> {
  const { baseUrl, routes } = options;
  const times: StepTimes = {};
  const errorKinds: Record<string, number> = {};
  let sessions = 0;
  let requests = 0;
  let errors = 0;
  let next = 0;
  let rssMb = 0;
  const sampler = setInterval(() => {
    const r = options.pgid ? groupRssMb(options.pgid) : null;
    if (r !== null) rssMb = Math.max(rssMb, r);
  }, 500);
  const started = performance.now();
  const deadline = started + options.durationS * 1000;
  const fail = (kind: string) => {
    errors++;
    errorKinds[kind] = (errorKinds[kind] ?? 0) + 1;
  };
  const one = async (m: PreparedMember) => {
    let jar = "";
    for (const step of sessionSteps(m)) {
      const url = stepUrl(step, routes);
      if (url === null) continue;
      const post = step.kind === "form" || step.kind === "action";
      const t0 = performance.now();
      let res: Response;
      try {
        res = await fetch(`${baseUrl}${url}`, {
          method: post ? "POST" : "GET",
          redirect: "manual",
          headers: {
            accept: step.kind === "document" || step.kind === "form" ? "text/html" : "*/*",
            "accept-encoding": BROWSER_ACCEPT_ENCODING,
            ...(jar ? { cookie: jar } : {}),
            ...(post ? { "content-type": "application/x-www-form-urlencoded", origin: baseUrl } : {}),
          },
          body: post ? step.body : undefined,
        });
        await res.arrayBuffer();
      } catch (e) {
        fail(`${step.key}: ${(e as Error).message}`);
        return false;
      }
      const ms = performance.now() - t0;
      requests++;
      jar = mergeCookies(jar, cookiesOf(res));
      const okStatus = step.kind === "form" ? res.status === 302 || res.status === 303 : res.status >= 200 && res.status < 300;
      if (!okStatus) {
        fail(`${step.key}: HTTP ${res.status}`);
        return false;
      }
      (times[step.key] ??= []).push(ms);
    }
    return true;
  };
  await Promise.all(
    Array.from({ length: options.concurrency }, async () => {
      while (performance.now() < deadline && !options.stopped()) {
        const m = options.members[next++ % options.members.length]!;
        if (await one(m)) sessions++;
      }
    }),
  );
  clearInterval(sampler);
  const elapsedS = (performance.now() - started) / 1000;
  return {
    concurrency: options.concurrency,
    durationS: elapsedS,
    sessions,
    requests,
    errors,
    errorKinds,
    steps: summarizeSteps(times),
    sessionsPerSec: sessions / elapsedS,
    requestsPerSec: requests / elapsedS,
    rssMb: rssMb || null,
  };
}

export type SessionMixResults = {
  members: number;
  limitMs: number;
  static: { reqPerSec: number; p50: number; p95: number };
  levels: LevelResult[];
  best: LevelResult | null;
  steps: Array<{ key: string; label: string; url: string }>;
};

/**
 * The mix: prepares the members, measures the static copy beside it (`staticPath`, 10
 * connections), then ramps the concurrency until a level fails.
 */
export async function measureSessionMix(options: {
  baseUrl: string;
  members: SessionMember[];
  routes: readonly ManifestRoute[];
  durationS: number;
  limitMs: number;
  staticPath: string;
  pgid: number | undefined;
  stopped: () => boolean;
  step: (line: string) => void;
  runStatic: (path: string) => Promise<{ reqPerSec: number; p50: number; p95: number }>;
}): Promise<SessionMixResults> {
  const { step } = options;
  step(`Parcours de membres : préparation de ${options.members.length} membres (connexion, PDF déposé dans leur dossier, formulaires)…`);
  const prepared = await prepareSessionMembers(options.baseUrl, options.members);
  const sample = prepared[0]!;
  const steps = sessionSteps(sample).map((s) => ({ key: s.key, label: s.label, url: stepUrl(s, options.routes) ?? "—" }));
  // Warm-up, not measured: every step of a few sessions, so that V8 has compiled each page's code.
  await runSessionLevel({ ...options, members: prepared, concurrency: 2, durationS: 5 });
  const levels: LevelResult[] = [];
  let staticRun = await options.runStatic(options.staticPath);
  for (let next: number | null = RAMP_LEVELS[0]; next !== null && !options.stopped(); ) {
    step(`Parcours de membres : ${next} en parallèle, ${options.durationS} s…`);
    const level = await runSessionLevel({ ...options, members: prepared, concurrency: next, durationS: options.durationS });
    levels.push(level);
    const worst = Object.entries(level.steps).sort((a, b) => b[1].p95 - a[1].p95)[0];
    step(
      `  ${level.sessionsPerSec.toFixed(2)} parcours/s, ${level.requestsPerSec.toFixed(0)} req/s, ${level.errors} erreur(s), ` +
        `p95 le plus lent : ${worst?.[0]} ${worst?.[1].p95.toFixed(0)} ms, RSS ${level.rssMb?.toFixed(0) ?? "?"} Mo`,
    );
    next = rampDecision(levels, options.limitMs, RAMP_LEVELS).next;
  }
  // The static copy again after the ramp: the machine is shared, the reference is the mean of both.
  const after = await options.runStatic(options.staticPath);
  staticRun = { reqPerSec: (staticRun.reqPerSec + after.reqPerSec) / 2, p50: (staticRun.p50 + after.p50) / 2, p95: (staticRun.p95 + after.p95) / 2 };
  const best = rampDecision(levels, options.limitMs, RAMP_LEVELS).best;
  return { members: prepared.length, limitMs: options.limitMs, static: staticRun, levels, best: levels.find((l) => l.concurrency === best) ?? null, steps };
}
