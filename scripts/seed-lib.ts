// Demo data for the whole product: validated members of every tier, certified deals,
// recommendations, messages, buyer and seller mandates that match each other, and a few
// applicants waiting for validation. Deterministic for a given seed (ids included); fast enough
// for 100 000 members: one argon2 hash shared by every account, ids generated here so that
// children never wait for their parents, multi-row INSERTs, one transaction (all or nothing).
import { eq, getTableColumns, getTableName, is, sql, type SQL } from "drizzle-orm";
import { PgArray, type PgColumn, type PgTable } from "drizzle-orm/pg-core";
import { hashPassword } from "~/auth/password.server";
import type { Db } from "~/db/client.server";
import { queryRows } from "~/db/query.server";
import {
  account,
  certifiedDeals,
  collaborationEvents,
  collaborationFiles,
  collaborationMessages,
  connectionEvents,
  mandateMatchRequests,
  mandates,
  messages,
  profiles,
  recommendations,
  user,
  verificationChecks,
  verificationEvidence,
} from "~/db/schema";
import { readsFromLegacyMarks } from "~/features/messages/message-reads.server";
import { VERIFICATION_STEPS } from "~/features/trust/verification-rules";
import { buildSeedFiles, type SeedMandate } from "./seed-files";
import {
  buildCredentialAccount,
  buildDeal,
  buildMandate,
  buildMessage,
  buildProfile,
  buildRecommendation,
  buildVerificationChecks,
  buildVerificationEvidence,
  faker,
  seedFactories,
  slugify,
  type NewAccount,
  type NewDeal,
  type NewMandate,
  type NewMessage,
  type NewProfile,
  type NewRecommendation,
  type NewUser,
} from "../tests/support/factories";

export const DEMO_DOMAIN = "demo.reseau-transmission.fr";
export const DEFAULT_DEMO_PASSWORD = "demo-transmission-2026";

export type DemoLoginKind = "fondateur" | "premium" | "freemium" | "candidat";

export type DemoLogin = { kind: DemoLoginKind; label: string; email: string; password: string };

export type SeedOptions = {
  /** Validated members (the three member demo logins included). */
  members: number;
  /** Mandates, half buyers half sellers (default: as many as members). */
  mandates?: number;
  seed?: number;
  password?: string;
  /** Progress lines (the CLI prints them). */
  log?: (line: string) => void;
};

export type SeedCounts = {
  users: number;
  members: number;
  foundingMembers: number;
  premiumMembers: number;
  freemiumMembers: number;
  applicants: number;
  recommendations: number;
  certifiedDeals: number;
  messages: number;
  mandates: number;
  collaborationFiles: number;
  buyerMandates: number;
  sellerMandates: number;
};

export type SeedResult = {
  /** True when this seed's demo data was already there (nothing inserted). */
  skipped: boolean;
  seed: number;
  logins: DemoLogin[];
  counts: SeedCounts;
  elapsedMs: number;
};

const LOGIN_LABELS: Record<DemoLoginKind, string> = {
  fondateur: "Membre fondateur",
  premium: "Membre premium",
  freemium: "Membre freemium",
  candidat: "Candidat en attente de validation",
};

// The demo personas have fixed names so that a walkthrough can refer to them.
const PERSONAS: Record<DemoLoginKind, { firstName: string; lastName: string }> = {
  fondateur: { firstName: "Hélène", lastName: "Marchand" },
  premium: { firstName: "Thomas", lastName: "Garnier" },
  freemium: { firstName: "Julie", lastName: "Morel" },
  candidat: { firstName: "Antoine", lastName: "Leroy" },
};

/** Seed 1 keeps the plain addresses; other seeds tag them so several seeds can share a database. */
function emailTag(seed: number): string {
  return seed === 1 ? "" : `+s${seed}`;
}

export function demoLoginEmail(kind: DemoLoginKind, seed = 1): string {
  return `${kind}${emailTag(seed)}@${DEMO_DOMAIN}`;
}

export function demoLogins(seed = 1, password = DEFAULT_DEMO_PASSWORD): DemoLogin[] {
  return (["fondateur", "premium", "freemium", "candidat"] as const).map((kind) => ({
    kind,
    label: LOGIN_LABELS[kind],
    email: demoLoginEmail(kind, seed),
    password,
  }));
}

/** Applicants waiting for validation: a few, growing slowly with the size of the demo. */
export function applicantCount(members: number): number {
  return Math.min(50, Math.max(3, Math.ceil(members / 2000)));
}

function emptyCounts(): SeedCounts {
  return {
    users: 0, members: 0, foundingMembers: 0, premiumMembers: 0, freemiumMembers: 0, applicants: 0,
    recommendations: 0, certifiedDeals: 0, messages: 0, mandates: 0, buyerMandates: 0, sellerMandates: 0, collaborationFiles: 0,
  };
}

// Bulk insert through `unnest`: one bind parameter per column (each a PostgreSQL array literal),
// whatever the number of rows. This keeps far below the 65 535-parameter limit of a statement,
// and skips the per-value work of the query builder, which dominated the run time at 100 000
// members. Values go through each column's own driver mapping, so they are stored exactly as a
// regular drizzle insert would store them.
function arrayLiteral(values: readonly unknown[]): string {
  let out = "{";
  for (let i = 0; i < values.length; i++) {
    if (i > 0) out += ",";
    const v = values[i];
    if (v === null || v === undefined) out += "NULL";
    else out += `"${String(v).replace(/[\\"]/g, (c) => `\\${c}`)}"`;
  }
  return `${out}}`;
}

function quoteIdent(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}

export async function bulkInsert<T extends PgTable>(db: Db, table: T, rows: readonly T["$inferInsert"][], batchSize = 5000) {
  const columns = Object.entries(getTableColumns(table)) as [string, PgColumn][];
  for (let start = 0; start < rows.length; start += batchSize) {
    const batch = rows.slice(start, start + batchSize) as readonly Record<string, unknown>[];
    const names: SQL[] = [];
    const selects: SQL[] = [];
    const params: SQL[] = [];
    for (const [key, column] of columns) {
      let defined = 0;
      for (const row of batch) if (row[key] !== undefined) defined++;
      // Absent everywhere: leave it to the column default.
      if (defined === 0) continue;
      if (defined < batch.length && column.hasDefault) {
        throw new Error(`bulkInsert(${getTableName(table)}): "${key}" is set on some rows only`);
      }
      const array = is(column, PgArray);
      const values = batch.map((row) => {
        const v = row[key];
        return v === undefined || v === null ? null : column.mapToDriverValue(v);
      });
      const alias = `c${names.length}`;
      names.push(sql.raw(quoteIdent(column.name)));
      // An array column travels as text (its own literal) and is cast back row by row.
      params.push(sql`${arrayLiteral(values)}::${sql.raw(array ? "text" : column.getSQLType())}[]`);
      selects.push(sql.raw(array ? `u.${alias}::${column.getSQLType()}` : `u.${alias}`));
    }
    const aliases = sql.raw(names.map((_, i) => `c${i}`).join(", "));
    await db.execute(
      sql`insert into ${table} (${sql.join(names, sql`, `)}) select ${sql.join(selects, sql`, `)} from unnest(${sql.join(params, sql`, `)}) as u(${aliases})`,
    );
  }
}

const DAY_MS = 86_400_000;
const MEMBER_CHUNK = 5000;

type Author = { profileId: string; name: string; email: string; premium: boolean };

export async function seedDemoData(db: Db, options: SeedOptions): Promise<SeedResult> {
  const started = performance.now();
  const seed = options.seed ?? 1;
  const password = options.password ?? DEFAULT_DEMO_PASSWORD;
  const memberCount = Math.max(3, Math.floor(options.members));
  const mandateCount = Math.max(0, Math.floor(options.mandates ?? memberCount));
  const log = options.log ?? (() => {});
  const logins = demoLogins(seed, password);
  const elapsed = () => `${((performance.now() - started) / 1000).toFixed(1)} s`;
  const counts = emptyCounts();

  const [existing] = await db.select({ id: user.id }).from(user).where(eq(user.email, logins[0].email)).limit(1);
  if (existing) return { skipped: true, seed, logins, counts, elapsedMs: performance.now() - started };

  seedFactories(seed);
  const passwordHash = await hashPassword(password);
  const tag = emailTag(seed);



  await db.transaction(async (tx) => {
    const authors: Author[] = [];
    const verifiedMembers: { id: string; profession: string; checkedAt: Date; endsOn: string }[] = [];
    const premiumIdx: number[] = [];

    // One person: user + credential account + profile + two sponsors (+ deals for paid tiers).
    type Batch = { users: NewUser[]; accounts: NewAccount[]; profiles: NewProfile[]; recs: NewRecommendation[]; deals: NewDeal[] };
    const newBatch = (): Batch => ({ users: [], accounts: [], profiles: [], recs: [], deals: [] });
    const flush = async (b: Batch) => {
      await bulkInsert(tx, user, b.users);
      await bulkInsert(tx, account, b.accounts);
      await bulkInsert(tx, profiles, b.profiles);
      await bulkInsert(tx, recommendations, b.recs);
      await bulkInsert(tx, certifiedDeals, b.deals);
    };
    // The database works on one chunk while the next one is generated (a real gain with a
    // PostgreSQL server; harmless with PGlite). No await happens between starting a chunk and
    // awaiting it, so a failure is never an unhandled rejection.
    let inFlight: Promise<void> = Promise.resolve();
    const submit = async (work: () => Promise<void>) => {
      await inFlight;
      inFlight = work();
    };
    const addPerson = (
      b: Batch,
      email: (p: { firstName: string; lastName: string }) => string,
      profileOverrides: Partial<NewProfile>,
      confirmedSponsors: number,
    ) => {
      const userId = faker.string.uuid();
      const profile = buildProfile({ ...profileOverrides, userId });
      // Validated members are verified under the one rule (issue 27): evidence on file, the five
      // steps ticked, the summary written from them. One in forty has let the certificate expire
      // (no mark, "Assurance à renouveler" for the team). No faker draw here: the evidence is
      // drawn last, so the data above stays as reproducible as before.
      if (profile.profileStatus === "validated" && profile.validatedAt instanceof Date) {
        const checkedAt = profile.validatedAt;
        const expired = counts.users % 40 === 39;
        const endsOn = new Date(Date.now() + (expired ? -10 : 60 + (counts.users % 300)) * DAY_MS).toISOString().slice(0, 10);
        profile.verificationSummary = { steps: VERIFICATION_STEPS.map((step) => ({ step, checkedAt: checkedAt.toISOString() })) };
        profile.insuranceValidUntil = endsOn;
        verifiedMembers.push({ id: profile.id, profession: profile.profession, checkedAt, endsOn });
      }
      const createdAt = profile.createdAt instanceof Date ? profile.createdAt : new Date();
      const mail = email({ firstName: profile.firstName, lastName: profile.lastName });
      const signedUp = new Date(createdAt.getTime() - 7 * DAY_MS);
      b.users.push({ id: userId, name: `${profile.firstName} ${profile.lastName}`, email: mail, emailVerified: true, createdAt: signedUp, updatedAt: signedUp });
      b.accounts.push(buildCredentialAccount(userId, passwordHash, { createdAt: signedUp }));
      b.profiles.push(profile);
      const sponsorsAsked = new Date(createdAt.getTime() - 5 * DAY_MS);
      const r1 = buildRecommendation({ profileId: profile.id, createdAt: sponsorsAsked });
      const r2 = buildRecommendation({ profileId: profile.id, createdAt: sponsorsAsked });
      if (r2.sponsorEmail === r1.sponsorEmail) r2.sponsorEmail = `2.${r2.sponsorEmail}`;
      if (confirmedSponsors < 2) r2.confirmedAt = null;
      if (confirmedSponsors < 1) r1.confirmedAt = null;
      b.recs.push(r1, r2);
      counts.users++;
      counts.recommendations += 2;
      return { profile, email: mail };
    };

    // Validated members.
    let batch = newBatch();
    for (let i = 0; i < memberCount; i++) {
      const kind: DemoLoginKind | undefined = i === 0 ? "fondateur" : i === 1 ? "premium" : i === 2 ? "freemium" : undefined;
      const overrides: Partial<NewProfile> = kind
        ? { ...PERSONAS[kind], membershipType: kind === "fondateur" ? "founding_member" : kind }
        : {};
      const { profile, email } = addPerson(
        batch,
        (p) => (kind ? demoLoginEmail(kind, seed) : `${slugify(p.firstName)}.${slugify(p.lastName)}.${i}${tag}@${DEMO_DOMAIN}`),
        overrides,
        2,
      );
      const membership = profile.membershipType ?? "freemium";
      const premium = membership !== "freemium";
      if (membership === "founding_member") counts.foundingMembers++;
      else if (membership === "premium") counts.premiumMembers++;
      else counts.freemiumMembers++;
      if (premium) premiumIdx.push(i);
      authors.push({ profileId: profile.id, name: `${profile.firstName} ${profile.lastName}`, email, premium });

      // Certified deals: about half of the paid members have some; the demo personas always do.
      if (premium && (kind !== undefined || faker.datatype.boolean())) {
        const statuses: NewDeal["status"][] = kind
          ? ["validated", "validated", "pending"]
          : Array.from({ length: faker.number.int({ min: 1, max: 4 }) }, () => undefined);
        for (const status of statuses) batch.deals.push(buildDeal({ profileId: profile.id, ...(status ? { status } : {}) }));
        counts.certifiedDeals += statuses.length;
      }
      if (batch.profiles.length >= MEMBER_CHUNK) {
        const full = batch;
        await submit(() => flush(full));
        batch = newBatch();
        log(`  membres : ${i + 1} / ${memberCount} (${elapsed()})`);
      }
    }
    const lastMembers = batch;
    await submit(() => flush(lastMembers));
    await inFlight;
    counts.members = memberCount;

    // Applicants: onboarding finished, waiting for the team.
    batch = newBatch();
    const applicants = applicantCount(memberCount);
    const applicantProfiles: { id: string; profession: string }[] = [];
    for (let a = 0; a < applicants; a++) {
      const first = a === 0;
      const confirmed = first ? 2 : faker.helpers.weightedArrayElement([
        { value: 2, weight: 60 },
        { value: 1, weight: 25 },
        { value: 0, weight: 15 },
      ]);
      const recent = new Date(Date.now() - faker.number.int({ min: 1, max: 20 }) * DAY_MS);
      const { profile: applicant } = addPerson(
        batch,
        (p) => (first ? demoLoginEmail("candidat", seed) : `${slugify(p.firstName)}.${slugify(p.lastName)}.c${a}${tag}@${DEMO_DOMAIN}`),
        {
          ...(first ? PERSONAS.candidat : {}),
          membershipType: first || faker.number.int({ min: 0, max: 3 }) > 0 ? "freemium" : "premium",
          profileStatus: "pending_validation",
          onboardingStatus: "payment_completed",
          internalPresentation: null,
          validatedAt: null,
          createdAt: recent,
          updatedAt: recent,
        },
        confirmed,
      );
      applicantProfiles.push({ id: applicant.id, profession: applicant.profession });
    }
    await flush(batch);
    counts.applicants = applicants;

    // Mandates: owners cycle through the members (the demo personas own the first ones),
    // buyers and sellers alternate; the factory draws sectors and territories from the same
    // concentrated distributions so that many buyer/seller pairs score.
    let mandateRows: NewMandate[] = [];
    const seededMandates: SeedMandate[] = [];
    for (let j = 0; j < mandateCount; j++) {
      const mandateType = j % 2 === 0 ? "buyer" : "seller";
      const owner = authors[j % memberCount];
      const row = buildMandate({ profileId: owner.profileId, mandateType });
      mandateRows.push(row);
      seededMandates.push({ id: row.id, profileId: owner.profileId, mandateType, clientCode: row.clientCode, ownerName: owner.name });
      if (mandateType === "buyer") counts.buyerMandates++;
      else counts.sellerMandates++;
      if (mandateRows.length >= MEMBER_CHUNK) {
        const full = mandateRows;
        await submit(() => bulkInsert(tx, mandates, full));
        mandateRows = [];
        log(`  mandats : ${j + 1} / ${mandateCount} (${elapsed()})`);
      }
    }
    const lastMandates = mandateRows;
    await submit(() => bulkInsert(tx, mandates, lastMandates));
    counts.mandates = mandateCount;

    // Messages: internal ones between paid members (internal messaging is a paid feature),
    // public contact ones from visitors to anyone. Each persona gets a few.
    const messageCount = Math.max(12, Math.round(memberCount * 0.3));
    const randomPremium = (not: number): number | undefined => {
      if (premiumIdx.length === 0) return undefined;
      for (let tries = 0; tries < 8; tries++) {
        const idx = premiumIdx[faker.number.int({ min: 0, max: premiumIdx.length - 1 })];
        if (idx !== not) return idx;
      }
      return undefined;
    };
    let messageRows: NewMessage[] = [];
    for (let k = 0; k < messageCount; k++) {
      let recipient: number;
      let internal: boolean;
      if (k < 9) {
        recipient = Math.floor(k / 3);
        internal = recipient !== 2 && k % 3 !== 2;
      } else {
        internal = faker.number.int({ min: 0, max: 9 }) < 6;
        recipient = internal ? (randomPremium(-1) ?? 0) : faker.number.int({ min: 0, max: memberCount - 1 });
      }
      const senderIdx = internal ? randomPremium(recipient) : undefined;
      const to = authors[recipient].profileId;
      if (senderIdx === undefined) {
        messageRows.push(buildMessage({ recipientId: to, messageType: "public_contact", senderId: null }));
      } else {
        const sender = authors[senderIdx];
        messageRows.push(
          buildMessage({ recipientId: to, messageType: "internal", senderId: sender.profileId, senderName: sender.name, senderEmail: sender.email }),
        );
      }
      if (messageRows.length >= MEMBER_CHUNK) {
        const full = messageRows;
        await submit(() => bulkInsert(tx, messages, full));
        messageRows = [];
      }
    }
    const lastMessages = messageRows;
    await submit(() => bulkInsert(tx, messages, lastMessages));
    await inFlight;
    log(`  messages : ${messageCount} (${elapsed()})`);
    counts.messages = messageCount;

    // Collaboration files of confirmed connections (scripts/seed-files.ts).
    const counters = await queryRows<{ year: number; last_number: number }>(sql`select year, last_number from collaboration_file_counters`, tx);
    const files = buildSeedFiles(seededMandates, 5, new Map(counters.map((c) => [Number(c.year), Number(c.last_number)])));
    await bulkInsert(tx, mandateMatchRequests, files.requests);
    await bulkInsert(tx, connectionEvents, files.connectionEvents);
    await bulkInsert(tx, collaborationFiles, files.files);
    // The counters continue after the seeded references (the next file opened gets the next number).
    await tx.execute(sql`insert into collaboration_file_counters (year, last_number)
      select split_part(reference, '-', 2)::integer, max(split_part(reference, '-', 3)::integer) from collaboration_files group by 1
      on conflict (year) do update set last_number = greatest(collaboration_file_counters.last_number, excluded.last_number)`);
    await bulkInsert(tx, collaborationEvents, files.events);
    await bulkInsert(tx, collaborationMessages, files.messages);
    // The seeded read marks in the one read state (decision 054).
    await readsFromLegacyMarks(tx);
    // The demo personas get their messages and requests by e-mail at once (a walkthrough waits for them).
    await tx.execute(sql`insert into email_preferences (user_id, email_kind, frequency)
      select u.id, k.kind, 'immediate' from "user" u cross join (values ('messages'), ('match_requests')) as k(kind)
      where u.email in (${sql.join(
        (["fondateur", "premium", "freemium"] as const).map((kind) => sql`${demoLoginEmail(kind, seed)}`),
        sql`, `,
      )}) on conflict do nothing`);
    counts.collaborationFiles = files.files.length;
    // What the freemium quotas count (quota_events), for the mandates and requests just written.
    await tx.execute(sql`insert into quota_events (profile_id, kind, subject_id, created_at)
      select profile_id, 'mandate_created', id, created_at from mandates on conflict do nothing`);
    await tx.execute(sql`insert into quota_events (profile_id, kind, subject_id, created_at)
      select requester_profile_id, 'match_request_sent', id, created_at from mandate_match_requests on conflict do nothing`);
    log(`  dossiers de rapprochement : ${files.files.length} (${elapsed()})`);
    // The applicants' verification evidence, for the admin checklist (drawn last: the draws
    // above stay the same). Their certificates are not stored: the link answers 404.
    await bulkInsert(tx, verificationEvidence, applicantProfiles.map((p) => buildVerificationEvidence(p)));
    // The validated members' evidence and ticks, matching the summary on their rows.
    await bulkInsert(tx, verificationEvidence, verifiedMembers.map((m) => buildVerificationEvidence(m, { insuranceEndsOn: m.endsOn })));
    await bulkInsert(tx, verificationChecks, verifiedMembers.flatMap((m) => buildVerificationChecks(m.id, m.checkedAt)));
  });
  // Fresh statistics, so that the directory's first queries use the trigram and GIN indexes.
  log(`  données insérées (${elapsed()}), statistiques (ANALYZE)…`);
  await db.execute(sql`analyze`);

  return { skipped: false, seed, logins, counts, elapsedMs: performance.now() - started };
}
