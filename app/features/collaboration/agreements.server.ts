// The fee-sharing agreement of a collaboration file. Each version is a frozen
// PDF stored privately with its SHA-256; a new version cancels the unsigned previous one; each
// member signs the exact bytes (consent + password, or a two-factor code), and the second
// signature seals it: the signed PDF (original pages + a certificate page with the audit trail)
// is stored once and never changes. Every step joins the file's timeline and e-mails the other
// member. Terms, signer names and hashes are copied into the rows, so that the signed agreement
// outlives a deleted mandate or account (references are set null).
import { createHash, randomBytes } from "node:crypto";
import { sql } from "drizzle-orm";
import { PDFDocument } from "pdf-lib";
import { verifyPassword } from "~/auth/password.server";
import { claimTotpCode, releaseTotpCode } from "~/auth/totp-replay.server";
import { db, type Db } from "~/db/client.server";
import { professionLabel } from "~/db/reference/professions";
import { feeAgreements, feeAgreementSignatures } from "~/db/schema";
import { queryRows } from "~/db/query.server";
import { allowPasswordCheck } from "~/features/account/account.server";
import { isUuid } from "~/lib/uuid";
import { logger } from "~/lib/logger.server";
import { consumeRateLimit, type RateLimitRule } from "~/lib/rate-limit.server";
import { getStorage, type ObjectStream } from "~/lib/storage/storage.server";
import { PRIVATE_DOCUMENTS_PREFIX } from "~/lib/storage/keys";
import {
  AGREEMENT_MESSAGES,
  agreementBlocks,
  agreementFileName,
  canCreateAgreement,
  canSignAgreement,
  certificateBlocks,
  OPERATION_TYPE_LABELS,
  dueText,
  partyLine,
  professionWarnings,
  type AgreementParty,
  type Firm,
  type AgreementTerms,
  type DueTerm,
  type OperationType,
  type Payer,
  type ProfessionWarning,
  type SellerAdviser,
} from "./agreement-rules";
import type { AgreementInput } from "./agreement.schema";
import { suggestAgreement, type College, type MandateFacts } from "./agreement-suggestion";
import { AMOUNT_BAND_LABELS, type AmountBand, type Stage } from "./collaboration-rules";
import { GONE_MEMBER_NAME, notifyCounterpart } from "./collaboration.server";
import { completeTodo } from "~/features/notifications/notifications.server";
import { todoKey } from "~/features/notifications/event-rules";
import { contentDisposition } from "./documents-rules";
import { actorName, appendFileEvent, fileConflict, requireFileAccess, withFile, type FileAccess, type FileActor } from "./file-access.server";
import { appendTextPages, renderTextPdf } from "~/lib/pdf/text-pdf.server";
import { sealOrRefuse } from "./seal-or-refuse.server";
import { visibleNetworkEvidence } from "./signer-network";

const sha256 = (bytes: Uint8Array) => createHash("sha256").update(bytes).digest("hex");
const iso = (v: Date | string) => new Date(v).toISOString();

function agreementKey(fileId: string, kind: "v" | "signed"): string {
  return `${PRIVATE_DOCUMENTS_PREFIX}${fileId}/agreement-${kind}-${randomBytes(12).toString("hex")}.pdf`;
}

// ---------------------------------------------------------------------------------------------
// Reading

type MemberRow = {
  id: string;
  first_name: string;
  last_name: string;
  company: string | null;
  full_address: string | null;
  profession: string | null;
  user_id: string;
};

async function memberOf(handle: Db, profileId: string | null): Promise<MemberRow | null> {
  if (!profileId) return null;
  const [row] = await queryRows<MemberRow>(
    sql`select id, first_name, last_name, company, full_address, profession::text as profession, user_id from profiles where id = ${profileId}::uuid`,
    handle,
  );
  return row ?? null;
}

const fullName = (m: MemberRow) => `${m.first_name} ${m.last_name}`.trim();

type AgreementRow = {
  id: string;
  version: number;
  status: "pending" | "signed" | "cancelled";
  terms: unknown;
  created_by: string | null;
  document_key: string;
  document_sha256: string;
  signed_key: string | null;
  signed_sha256: string | null;
  signed_at: Date | string | null;
  cancelled_at: Date | string | null;
  created_at: Date | string;
};

type SignatureRow = {
  agreement_id: string;
  profile_id: string | null;
  signer_name: string;
  document_sha256: string;
  ip_address: string | null;
  user_agent: string | null;
  method: string;
  signed_at: Date | string;
};

const parseTerms = (v: unknown) => (typeof v === "string" ? JSON.parse(v) : v) as AgreementTerms;

export type AgreementSignatureView = { name: string; byMe: boolean; at: string; method: string };

/** The values of the proposal form, from the viewer's side ("" where nothing is known). */
export type AgreementFormValues = {
  operationType: OperationType | "";
  sellerAdviser: SellerAdviser | "";
  amountBand: AmountBand | "";
  myShare: string;
  theirShare: string;
  payer: Payer;
  dueTerm: DueTerm;
  clauses: string;
  myCompany: string;
  myLegalForm: string;
  mySiren: string;
  myAddress: string;
  myCapacity: string;
  theirCompany: string;
  theirLegalForm: string;
  theirSiren: string;
  theirAddress: string;
  theirCapacity: string;
};

type FirmValues = Pick<AgreementFormValues, "myCompany" | "myLegalForm" | "mySiren" | "myAddress" | "myCapacity">;

function firmValues(firm: Partial<Firm> | undefined): FirmValues {
  return {
    myCompany: firm?.company ?? "",
    myLegalForm: firm?.legalForm ?? "",
    mySiren: firm?.siren ?? "",
    myAddress: firm?.address ?? "",
    myCapacity: firm?.capacity ?? "",
  };
}

function asTheirs(values: FirmValues) {
  return {
    theirCompany: values.myCompany,
    theirLegalForm: values.myLegalForm,
    theirSiren: values.mySiren,
    theirAddress: values.myAddress,
    theirCapacity: values.myCapacity,
  };
}

export type AgreementView = {
  id: string;
  version: number;
  status: AgreementRow["status"];
  createdAt: string;
  createdByMe: boolean;
  createdByName: string;
  operationLabel: string;
  dueLabel: string;
  /** Whether the viewer advises the seller (null for versions that did not say). */
  sellerIsMe: boolean | null;
  amountBandLabel: string | null;
  /** The terms as the proposal form takes them, to propose other conditions from these. */
  values: AgreementFormValues;
  /** How the agreement names each party (firm, signer, capacity, role). */
  myPartyLine: string;
  theirPartyLine: string;
  /** From the viewer's side. */
  myShare: number;
  theirShare: number;
  iPay: boolean;
  clauses: string | null;
  documentSha256: string;
  signedSha256: string | null;
  signedAt: string | null;
  cancelledAt: string | null;
  signatures: AgreementSignatureView[];
  signedByMe: boolean;
  warnings: ProfessionWarning[];
};

export type AgreementPage = {
  fileId: string;
  stage: Stage;
  /** null when a new version may be proposed, else why not. */
  createBlockedBy: string | null;
  signBlockedBy: string | null;
  me: { name: string; mandateLabel: string; profession: string | null };
  them: { name: string; mandateLabel: string; profession: string | null; gone: boolean };
  /** The warnings of the two members' professions, shown with the form. */
  warnings: ProfessionWarning[];
  /** The form's first values: the current version's terms, else what the two mandates suggest. */
  defaults: AgreementFormValues;
  /** Which of the defaults were read from the mandates (none once a version exists). */
  suggested: { operationType: boolean; sellerAdviser: boolean; amountBand: boolean };
  /** The pending or signed version, if any. */
  current: AgreementView | null;
  /** Earlier versions, newest first (cancelled). */
  history: AgreementView[];
  /** The signer re-enters a two-factor code instead of the password. */
  twoFactor: boolean;
};

function toView(row: AgreementRow, signatures: SignatureRow[], access: FileAccess, actorId: string): AgreementView {
  const terms = parseTerms(row.terms);
  const mine = terms.parties.find((p) => p.side === access.side) ?? terms.parties[0];
  const theirs_ = terms.parties.find((p) => p.side !== access.side) ?? terms.parties[1];
  const creator = terms.parties.find((p) => p.side === terms.createdBySide);
  const own = signatures.filter((s) => s.agreement_id === row.id);
  const sellerIsMe = terms.sellerSide ? terms.sellerSide === access.side : null;
  return {
    id: row.id,
    version: row.version,
    status: row.status,
    createdAt: iso(row.created_at),
    createdByMe: row.created_by === actorId,
    createdByName: creator?.name ?? GONE_MEMBER_NAME,
    operationLabel: OPERATION_TYPE_LABELS[terms.operationType],
    dueLabel: dueText(terms.operationType, terms.dueTerm),
    sellerIsMe,
    amountBandLabel: terms.amountBand ? AMOUNT_BAND_LABELS[terms.amountBand] : null,
    values: {
      operationType: terms.operationType,
      sellerAdviser: sellerIsMe === null ? "" : sellerIsMe ? "me" : "them",
      amountBand: terms.amountBand ?? "",
      myShare: String(mine.share),
      theirShare: String(theirs_.share),
      payer: terms.payerSide === access.side ? "me" : "them",
      dueTerm: terms.dueTerm,
      clauses: terms.clauses ?? "",
      ...firmValues(mine.firm ?? { company: mine.company ?? "" }),
      ...asTheirs(firmValues(theirs_.firm ?? { company: theirs_.company ?? "" })),
    },
    myPartyLine: partyLine(mine, terms.sellerSide),
    theirPartyLine: partyLine(theirs_, terms.sellerSide),
    myShare: mine.share,
    theirShare: theirs_.share,
    iPay: terms.payerSide === access.side,
    clauses: terms.clauses,
    documentSha256: row.document_sha256,
    signedSha256: row.signed_sha256,
    signedAt: row.signed_at ? iso(row.signed_at) : null,
    cancelledAt: row.cancelled_at ? iso(row.cancelled_at) : null,
    signatures: own.map((s) => ({ name: s.signer_name, byMe: s.profile_id === actorId, at: iso(s.signed_at), method: s.method })),
    signedByMe: own.some((s) => s.profile_id === actorId),
    warnings: professionWarnings(terms.parties.map((p) => ({ name: p.name, profession: p.profession, pays: p.side === terms.payerSide }))),
  };
}

async function agreementsOf(handle: Db, fileId: string): Promise<{ rows: AgreementRow[]; signatures: SignatureRow[] }> {
  const rows = await queryRows<AgreementRow>(
    sql`select id, version, status::text as status, terms, created_by, document_key, document_sha256, signed_key, signed_sha256,
      signed_at, cancelled_at, created_at from fee_agreements where file_id = ${fileId}::uuid order by version desc`,
    handle,
  );
  const signatures = rows.length
    ? await queryRows<SignatureRow>(
        sql`select agreement_id, profile_id, signer_name, document_sha256, ip_address, user_agent, method, signed_at
          from fee_agreement_signatures where agreement_id in (${sql.join(
            rows.map((r) => sql`${r.id}::uuid`),
            sql`, `,
          )}) order by signed_at, id`,
        handle,
      )
    : [];
  return { rows, signatures };
}

/** Everything the agreement section shows, for one of the file's two members (404 for anyone else). */
export async function getAgreementPage(actor: Pick<FileActor, "profileId">, fileId: string): Promise<AgreementPage> {
  const access = await requireFileAccess(db, actor, fileId);
  const [labels] = await queryRows<{ mandate_a_label: string; mandate_b_label: string }>(
    sql`select mandate_a_label, mandate_b_label from collaboration_files where id = ${access.id}::uuid`,
  );
  const me = await memberOf(db, actor.profileId);
  const them = await memberOf(db, access.counterpartId);
  const [twoFactor] = me
    ? await queryRows<{ on: boolean | null }>(sql`select two_factor_enabled as on from "user" where id = ${me.user_id}`)
    : [];
  const { rows, signatures } = await agreementsOf(db, access.id);
  const views = rows.map((r) => toView(r, signatures, access, actor.profileId));
  const current = views.find((v) => v.status !== "cancelled") ?? null;
  const suggestion = suggestAgreement(await mandateFacts(access));
  // Own SIREN only: the counterpart's verification evidence stays private to them and the team.
  const [evidence] = me
    ? await queryRows<{ siren_typed: string }>(sql`select siren_typed from verification_evidence where profile_id = ${me.id}::uuid`)
    : [];
  const mySiren = evidence?.siren_typed ?? null;
  const latest = current ?? views[0] ?? null;
  const defaults: AgreementFormValues = latest
    ? latest.values
    : {
        operationType: suggestion.operationType ?? "",
        sellerAdviser: suggestion.sellerSide ? (suggestion.sellerSide === access.side ? "me" : "them") : "",
        amountBand: suggestion.amountBand ?? "",
        myShare: "50",
        theirShare: "50",
        payer: "me",
        dueTerm: "deed",
        clauses: "",
        ...firmValues({ company: me?.company ?? "", address: me?.full_address ?? "", siren: mySiren ?? "" }),
        ...asTheirs(firmValues({ company: them?.company ?? "", address: them?.full_address ?? "" })),
      };
  const mine = access.side === "a" ? labels.mandate_a_label : labels.mandate_b_label;
  const theirs = access.side === "a" ? labels.mandate_b_label : labels.mandate_a_label;
  return {
    fileId: access.id,
    stage: access.stage,
    createBlockedBy: createBlocker(access, current?.status ?? null),
    signBlockedBy: canSignAgreement(access.stage) ? null : AGREEMENT_MESSAGES.closedSign,
    me: { name: me ? fullName(me) : "", mandateLabel: mine, profession: me?.profession ? professionLabel(me.profession) : null },
    them: {
      name: them ? fullName(them) : GONE_MEMBER_NAME,
      mandateLabel: theirs,
      profession: them?.profession ? professionLabel(them.profession) : null,
      gone: !them,
    },
    warnings: professionWarnings([
      ...(me ? [{ name: fullName(me), profession: me.profession }] : []),
      ...(them ? [{ name: fullName(them), profession: them.profession }] : []),
    ]),
    defaults,
    suggested: {
      operationType: !latest && suggestion.operationType !== null,
      sellerAdviser: !latest && suggestion.sellerSide !== null,
      amountBand: !latest && suggestion.amountBand !== null,
    },
    current,
    history: views.filter((v) => v !== current),
    twoFactor: Boolean(twoFactor?.on),
  };
}

type MandateFactsRow = {
  id: string;
  mandate_type: "buyer" | "seller";
  college: College | null;
  valuation_amount: number | string | null;
  target_amount_min: number | string | null;
  target_amount_max: number | string | null;
};

const num = (v: number | string | null) => (v === null ? null : Number(v));

/** The file's two mandates (those still existing), with the college of the member holding each. */
async function mandateFacts(access: FileAccess): Promise<MandateFacts[]> {
  const ids = [access.side === "a" ? access.myMandateId : access.theirMandateId, access.side === "a" ? access.theirMandateId : access.myMandateId];
  const present = ids.filter((id): id is string => id !== null);
  if (present.length === 0) return [];
  const rows = await queryRows<MandateFactsRow>(
    sql`select m.id, m.mandate_type::text as mandate_type, p.college::text as college, m.valuation_amount, m.target_amount_min, m.target_amount_max
      from mandates m left join profiles p on p.id = m.profile_id
      where m.id in (${sql.join(
        present.map((id) => sql`${id}::uuid`),
        sql`, `,
      )})`,
  );
  return rows.map((r) => ({
    side: r.id === ids[0] ? "a" : "b",
    type: r.mandate_type,
    college: r.college,
    valuation: num(r.valuation_amount),
    targetMin: num(r.target_amount_min),
    targetMax: num(r.target_amount_max),
  }));
}

function createBlocker(access: FileAccess, currentStatus: AgreementRow["status"] | null): string | null {
  if (currentStatus === "signed") return AGREEMENT_MESSAGES.signedFinal;
  if (!canCreateAgreement(access.stage)) return AGREEMENT_MESSAGES.closedCreate;
  if (!access.counterpartId) return AGREEMENT_MESSAGES.counterpartGone;
  return null;
}

// ---------------------------------------------------------------------------------------------
// Proposing a version

/**
 * Proposes a new version: its PDF is made and stored first, then, under the file's lock, the
 * previous pending version is cancelled, the new row and its timeline events are written and the
 * counterpart is e-mailed; if that fails the stored PDF is deleted (nothing half-stored).
 */
export async function createAgreement(actor: FileActor, fileId: string, input: AgreementInput, now: Date = new Date()): Promise<{ agreementId: string; version: number }> {
  const { access, terms, version, bytes } = await draftVersion(actor, fileId, input, now, false);
  const storage = getStorage();
  const key = agreementKey(access.id, "v");
  try {
    await storage.putObject(key, bytes, "application/pdf");
  } catch (error) {
    logger.error({ err: error, key }, "agreement could not be stored");
    fileConflict(AGREEMENT_MESSAGES.storeFailed, "failed");
  }
  try {
    return await withFile(actor, access.id, async (tx, file) => {
      const [state] = await queryRows<{ signed: boolean; next: number }>(
        sql`select bool_or(status = 'signed') as signed, coalesce(max(version), 0) + 1 as next from fee_agreements where file_id = ${file.id}::uuid`,
        tx,
      );
      const again = createBlocker(file, state?.signed ? "signed" : null);
      if (again) fileConflict(again);
      if (Number(state.next) !== version) fileConflict(AGREEMENT_MESSAGES.outdated);
      const cancelled = await queryRows<{ version: number }>(
        sql`update fee_agreements set status = 'cancelled', cancelled_at = clock_timestamp()
          where file_id = ${file.id}::uuid and status = 'pending' returning version`,
        tx,
      );
      for (const c of cancelled) await appendFileEvent(tx, file.id, actor, "agreement_cancelled", { version: c.version });
      const [row] = await tx
        .insert(feeAgreements)
        .values({
          fileId: file.id,
          version,
          status: "pending",
          terms,
          createdBy: actor.profileId,
          documentKey: key,
          documentSha256: sha256(bytes),
          createdAt: sql`clock_timestamp()`,
        })
        .returning({ id: feeAgreements.id });
      await appendFileEvent(tx, file.id, actor, "agreement_created", { version, sha256: sha256(bytes) });
      // A new version replaces the one waiting: its to-do, whoever had it, is done.
      await completeTodo(todoKey("agreement_to_sign", file.id), tx);
      await notifyCounterpart(tx, file.counterpartId, file.id, {
        title: "Une convention d’honoraires vous attend",
        intro: `${actorName(actor)} vous propose ${version > 1 ? "une nouvelle version de " : ""}la convention de partage d’honoraires de votre dossier de rapprochement commun.`,
        line: "Relisez-la et signez-la depuis le dossier, sur la plateforme.",
        kind: "collaboration-agreement",
      });
      return { agreementId: row.id, version };
    });
  } catch (error) {
    await storage.deleteObject(key).catch((e: unknown) => logger.warn({ err: e, key }, "orphan agreement could not be deleted"));
    throw error;
  }
}

/**
 * The terms and the PDF of the next version as `input` describes them, not stored. A draft (the
 * preview) says so on every page and in its title; the proposed version is the same text without it.
 */
async function draftVersion(actor: FileActor, fileId: string, input: AgreementInput, now: Date, draft: boolean) {
  const access = await requireFileAccess(db, actor, fileId);
  const blocked = createBlocker(access, null);
  if (blocked) fileConflict(blocked);
  const [labels] = await queryRows<{ mandate_a_label: string; mandate_b_label: string }>(
    sql`select mandate_a_label, mandate_b_label from collaboration_files where id = ${access.id}::uuid`,
  );
  const me = await memberOf(db, actor.profileId);
  const them = await memberOf(db, access.counterpartId);
  if (!me || !them) fileConflict(AGREEMENT_MESSAGES.counterpartGone);
  const other = access.side === "a" ? "b" : "a";
  const party = (side: "a" | "b", m: MemberRow, share: number, firm: Firm): AgreementParty => ({
    side,
    firm,
    name: fullName(m),
    company: m.company?.trim() || null,
    profession: m.profession,
    mandateLabel: side === "a" ? labels.mandate_a_label : labels.mandate_b_label,
    share,
  });
  const mineParty = party(access.side, me, input.myShare, {
    company: input.myCompany,
    legalForm: input.myLegalForm,
    siren: input.mySiren,
    address: input.myAddress,
    capacity: input.myCapacity,
  });
  const theirParty = party(other, them, input.theirShare, {
    company: input.theirCompany,
    legalForm: input.theirLegalForm,
    siren: input.theirSiren,
    address: input.theirAddress,
    capacity: input.theirCapacity,
  });
  const terms: AgreementTerms = {
    operationType: input.operationType,
    sellerSide: input.sellerAdviser === "me" ? access.side : other,
    amountBand: input.amountBand,
    dueTerm: input.dueTerm,
    payerSide: input.payer === "me" ? access.side : other,
    createdBySide: access.side,
    clauses: input.clauses,
    parties: access.side === "a" ? [mineParty, theirParty] : [theirParty, mineParty],
  };

  // The version number is decided under the lock; the PDF names the next one (a race between the
  // two members is caught below: a PDF naming another version is never kept).
  const [{ next }] = await queryRows<{ next: number }>(
    sql`select coalesce(max(version), 0) + 1 as next from fee_agreements where file_id = ${access.id}::uuid`,
  );
  const version = Number(next);
  const title = `Convention de partage d’honoraires — version ${version}`;
  const bytes = await renderTextPdf(agreementBlocks(terms, { version, fileReference: access.reference, createdAt: now, createdByName: actorName(actor), draft }), {
    title: draft ? `Projet — ${title}` : title,
    createdAt: now,
    ...(draft ? { footer: `Projet non signé — ${title}`, watermark: "PROJET" } : {}),
  });
  return { access, terms, version, bytes };
}

/** Making a PDF costs CPU: plenty for a member rereading drafts, a wall for a script. */
const PREVIEW_RATE: RateLimitRule = { limit: 60, windowSeconds: 60 * 60 };

/**
 * The draft PDF of the version the member is about to propose, marked « Projet » on every page;
 * nothing is stored nor recorded. The file's two members only (404 otherwise), and only while a
 * new version may be proposed.
 */
/** A draft made in memory for the preview: never stored, so its bytes rather than a stream. */
export type AgreementPreview = { bytes: Uint8Array; sha256: string; disposition: string };

export async function previewAgreement(actor: FileActor, fileId: string, input: AgreementInput, now: Date = new Date()): Promise<AgreementPreview> {
  const access = await requireFileAccess(db, actor, fileId);
  const [state] = await queryRows<{ signed: boolean | null }>(
    sql`select bool_or(status = 'signed') as signed from fee_agreements where file_id = ${access.id}::uuid`,
  );
  const blocked = createBlocker(access, state?.signed ? "signed" : null);
  if (blocked) fileConflict(blocked);
  const rate = await consumeRateLimit(`agreement-preview:${actor.profileId}`, PREVIEW_RATE);
  if (!rate.allowed) fileConflict(AGREEMENT_MESSAGES.tooManyPreviews, "rate-limited");
  const { bytes } = await draftVersion(actor, fileId, input, now, true);
  return { bytes, sha256: sha256(bytes), disposition: contentDisposition("inline", "projet-convention-honoraires.pdf") };
}

// ---------------------------------------------------------------------------------------------
// Signing

export type SignatureContext = { ipAddress: string | null; userAgent: string | null };
export type SignatureCredential = { password?: string; code?: string };

type CheckedCredential = { method: "password" | "totp"; release: () => Promise<void> };

/**
 * Checks the signer's credential like the account's own commands do: counted against the
 * account's password-check budget; the password against the stored argon2id hash (the hasher
 * better-auth is configured with); with two-factor authentication, a code of the authenticator
 * app, claimed once (TOTP replay protection).
 */
async function checkCredential(userId: string, email: string, credential: SignatureCredential): Promise<CheckedCredential> {
  if (!(await allowPasswordCheck({ id: userId, email }, "agreement-signature"))) fileConflict(AGREEMENT_MESSAGES.tooManyAttempts, "rate-limited");
  const [u] = await queryRows<{ two_factor_enabled: boolean | null }>(sql`select two_factor_enabled from "user" where id = ${userId}`);
  if (u?.two_factor_enabled) {
    const code = credential.code?.replace(/\s/g, "") ?? "";
    if (!/^\d{6}$/.test(code)) fileConflict(AGREEMENT_MESSAGES.code, "invalid");
    const claim = await claimTotpCode(userId, code);
    if (claim === "reused") fileConflict(AGREEMENT_MESSAGES.codeReused, "invalid");
    if (claim === "no-match") fileConflict(AGREEMENT_MESSAGES.wrongCode, "invalid");
    return { method: "totp", release: () => releaseTotpCode(userId, code) };
  }
  const password = credential.password ?? "";
  if (!password) fileConflict(AGREEMENT_MESSAGES.credential, "invalid");
  const [acc] = await queryRows<{ password: string | null }>(
    sql`select password from account where user_id = ${userId} and provider_id = 'credential' and password is not null limit 1`,
  );
  if (!acc?.password || !(await verifyPassword({ hash: acc.password, password }))) fileConflict(AGREEMENT_MESSAGES.wrongPassword, "invalid");
  return { method: "password", release: async () => undefined };
}

export type SignOutcome = { completed: boolean; version: number };

/**
 * One member signs the current version. Refused (and nothing changes) for another file's
 * version, a version that is no longer current or whose bytes are not the ones read, a second
 * signature by the same member, a wrong password or code. The second signature seals the
 * agreement: the signed PDF with its certificate page is stored, its SHA-256 recorded.
 */
export async function signAgreement(
  actor: FileActor,
  fileId: string,
  input: { agreementId: string; documentSha256: string } & SignatureCredential,
  context: SignatureContext,
  now: Date = new Date(),
): Promise<SignOutcome> {
  const access = await requireFileAccess(db, actor, fileId);
  if (!isUuid(input.agreementId)) fileConflict(AGREEMENT_MESSAGES.notFound, "not-found");
  // Checked before the credential (a code is not spent on a stale page), and again under the lock.
  const check = (row: AgreementRow | undefined, stage: Stage, signed: SignatureRow[]) => {
    if (!row) fileConflict(AGREEMENT_MESSAGES.notFound, "not-found");
    if (row.status === "signed") fileConflict(signed.some((s) => s.profile_id === actor.profileId) ? AGREEMENT_MESSAGES.alreadySigned : AGREEMENT_MESSAGES.signedFinal);
    if (row.status !== "pending" || row.document_sha256 !== input.documentSha256) fileConflict(AGREEMENT_MESSAGES.outdated);
    if (!canSignAgreement(stage)) fileConflict(AGREEMENT_MESSAGES.closedSign);
    if (signed.some((s) => s.profile_id === actor.profileId)) fileConflict(AGREEMENT_MESSAGES.alreadySigned);
  };
  const load = async (handle: Db, lock: boolean) => {
    const [row] = await queryRows<AgreementRow>(
      sql`select id, version, status::text as status, terms, created_by, document_key, document_sha256, signed_key, signed_sha256,
        signed_at, cancelled_at, created_at from fee_agreements where id = ${input.agreementId}::uuid and file_id = ${access.id}::uuid
        ${lock ? sql`for update` : sql``}`,
      handle,
    );
    const signed = row
      ? await queryRows<SignatureRow>(
          sql`select agreement_id, profile_id, signer_name, document_sha256, ip_address, user_agent, method, signed_at
            from fee_agreement_signatures where agreement_id = ${row.id}::uuid order by signed_at, id`,
          handle,
        )
      : [];
    return { row, signed };
  };
  const first = await load(db, false);
  check(first.row, access.stage, first.signed);

  const me = await memberOf(db, actor.profileId);
  if (!me) fileConflict(AGREEMENT_MESSAGES.notFound, "not-found");
  const [account] = await queryRows<{ email: string }>(sql`select email from "user" where id = ${me.user_id}`);
  const credential = await checkCredential(me.user_id, account?.email ?? "", input);

  // The second signature seals the agreement. The signed copy is made and stored before the
  // transaction (storage is never called under the file's lock); the transaction then checks that
  // the signatures it was made from are still the only ones, or refuses and deletes it.
  const storage = getStorage();
  const agreement = first.row!;
  const signedAt = new Date(Math.max(now.getTime(), Date.now()));
  const mine: SignatureRow = {
    agreement_id: agreement.id,
    profile_id: actor.profileId,
    signer_name: actorName(actor),
    document_sha256: agreement.document_sha256,
    ip_address: context.ipAddress?.slice(0, 100) ?? null,
    user_agent: context.userAgent?.slice(0, 500) ?? null,
    method: credential.method,
    signed_at: signedAt,
  };
  const all = [...first.signed, mine];
  // Both members signed (a departed member's signature still counts: it was given).
  const completes = all.length >= 2;
  let sealed: { key: string; sha256: string } | null = null;
  try {
    if (completes) sealed = await sealAgreement(access, agreement, all, signedAt);
    return await withFile(actor, access.id, async (tx, file) => {
      const { row, signed } = await load(tx, true);
      check(row, file.stage, signed);
      if (signed.length !== first.signed.length) fileConflict(AGREEMENT_MESSAGES.outdated);
      await tx.insert(feeAgreementSignatures).values({
        agreementId: agreement.id,
        profileId: actor.profileId,
        signerName: mine.signer_name,
        documentSha256: mine.document_sha256,
        ipAddress: mine.ip_address,
        userAgent: mine.user_agent,
        method: mine.method,
        signedAt,
      });
      await appendFileEvent(tx, file.id, actor, "agreement_signed", { version: agreement.version, sha256: agreement.document_sha256 });
      await completeTodo(todoKey("agreement_to_sign", file.id), tx, { profileId: actor.profileId });
      if (!sealed) {
        await notifyCounterpart(tx, file.counterpartId, file.id, {
          title: "Votre confrère a signé la convention d’honoraires",
          intro: `${actorName(actor)} a signé la convention de partage d’honoraires (version ${agreement.version}) de votre dossier de rapprochement commun.`,
          line: "Elle sera définitive quand vous l’aurez signée à votre tour, depuis le dossier.",
          kind: "collaboration-agreement",
        });
        return { completed: false, version: agreement.version };
      }
      await tx.execute(sql`update fee_agreements set status = 'signed', signed_key = ${sealed.key}, signed_sha256 = ${sealed.sha256},
        signed_at = ${signedAt.toISOString()}::timestamptz where id = ${agreement.id}::uuid`);
      await appendFileEvent(tx, file.id, null, "agreement_completed", { version: agreement.version, sha256: sealed.sha256 });
      await notifyCounterpart(tx, file.counterpartId, file.id, {
        title: "La convention d’honoraires est signée",
        intro: `${actorName(actor)} a signé à son tour\u00a0: la convention de partage d’honoraires (version ${agreement.version}) de votre dossier de rapprochement commun est signée par les deux membres.`,
        line: "L’exemplaire signé, avec son certificat de signature, se télécharge depuis le dossier.",
        kind: "collaboration-agreement-signed",
      });
      return { completed: true, version: agreement.version };
    });
  } catch (error) {
    await credential.release().catch(() => undefined);
    const key = sealed?.key;
    if (key) await storage.deleteObject(key).catch((e: unknown) => logger.warn({ err: e, key }, "orphan signed agreement could not be deleted"));
    throw error;
  }
}

/** The signed copy: the original pages, unchanged, then the certificate page; stored under a new key. */
async function sealAgreement(file: Pick<FileAccess, "id" | "reference">, agreement: AgreementRow, signatures: SignatureRow[], completedAt: Date): Promise<{ key: string; sha256: string }> {
  const storage = getStorage();
  const original = await storage.getObject(agreement.document_key);
  if (!original || sha256(original.bytes) !== agreement.document_sha256) {
    logger.error({ agreementId: agreement.id }, "agreement document missing or altered");
    fileConflict(AGREEMENT_MESSAGES.storeFailed, "failed");
  }
  const doc = await PDFDocument.load(original.bytes, { updateMetadata: false });
  await appendTextPages(
    doc,
    certificateBlocks({
      agreementId: agreement.id,
      version: agreement.version,
      fileReference: file.reference,
      documentSha256: agreement.document_sha256,
      signatures: signatures.map((s) => ({
        signerName: s.signer_name,
        signedAt: new Date(s.signed_at),
        // The certificate is made for both parties: both signers' network evidence.
        ...visibleNetworkEvidence("signature", "party", { ipAddress: s.ip_address, userAgent: s.user_agent }),
        method: s.method,
        documentSha256: s.document_sha256,
      })),
      completedAt,
    }),
    { title: "Certificat de signature électronique" },
  );
  const bytes = await sealOrRefuse(doc, { reason: `Convention de partage d’honoraires ${file.reference}, version ${agreement.version}, signée par les deux membres`, signingTime: completedAt });
  const key = agreementKey(file.id, "signed");
  try {
    await storage.putObject(key, bytes, "application/pdf");
  } catch (error) {
    logger.error({ err: error, key }, "signed agreement could not be stored");
    fileConflict(AGREEMENT_MESSAGES.storeFailed, "failed");
  }
  return { key, sha256: sha256(bytes) };
}

// ---------------------------------------------------------------------------------------------
// Downloading

export type AgreementPdf = { object: ObjectStream; sha256: string; disposition: string };

/**
 * The PDF of a version, for one of the file's members, byte for byte as stored (its SHA-256 is
 * the one shown): the document to sign, or the signed copy once both signed.
 */
export async function openAgreementPdf(actor: Pick<FileActor, "profileId">, fileId: string, agreementId: string, copy: "original" | "signed"): Promise<AgreementPdf> {
  const access = await requireFileAccess(db, actor, fileId);
  if (!isUuid(agreementId)) fileConflict(AGREEMENT_MESSAGES.notFound, "not-found");
  const [row] = await queryRows<AgreementRow>(
    sql`select id, version, status::text as status, terms, created_by, document_key, document_sha256, signed_key, signed_sha256,
      signed_at, cancelled_at, created_at from fee_agreements where id = ${agreementId}::uuid and file_id = ${access.id}::uuid`,
  );
  if (!row) fileConflict(AGREEMENT_MESSAGES.notFound, "not-found");
  const signed = copy === "signed";
  const key = signed ? row.signed_key : row.document_key;
  const expected = signed ? row.signed_sha256 : row.document_sha256;
  if (!key || !expected) fileConflict(AGREEMENT_MESSAGES.notFound, "not-found");
  // Streamed, and checked against the SHA-256 shown to the members as it goes.
  const object = await getStorage().openObject(key, { sha256: expected });
  if (!object) {
    logger.error({ agreementId: row.id, key }, "stored agreement missing");
    fileConflict(AGREEMENT_MESSAGES.notFound, "not-found");
  }
  return { object, sha256: expected, disposition: contentDisposition("attachment", agreementFileName(row.version, signed)) };
}

