// The fee-sharing agreement of a collaboration file. Each version is a frozen
// PDF stored privately with its SHA-256; a new version cancels the unsigned previous one; each
// member signs the exact bytes (consent + password, or a two-factor code), and the second
// signature seals it: the signed PDF (original pages + a certificate page with the audit trail)
// is stored once and never changes. Every step joins the file's timeline and e-mails the other
// member. Terms, signer names and hashes are copied into the rows, so that the signed agreement
// outlives a deleted mandate or account (references are set null). This module reads the page;
// proposing, signing and sealing live in agreement-versions, agreement-signing and agreement-seal.
import { sql } from "drizzle-orm";
import { db, type Db } from "~/db/client.server";
import { professionLabel } from "~/db/reference/professions";
import { queryRows } from "~/db/query.server";
import {
  AGREEMENT_MESSAGES,
  canSignAgreement,
  OPERATION_TYPE_LABELS,
  dueText,
  partyLine,
  professionWarnings,
  type Firm,
  type AgreementTerms,
  type DueTerm,
  type OperationType,
  type Payer,
  type ProfessionWarning,
  type SellerAdviser,
} from "./agreement-rules";
import { suggestAgreement, type College, type MandateFacts } from "./agreement-suggestion";
import { AMOUNT_BAND_LABELS, type AmountBand, type Stage } from "./collaboration-rules";
import { GONE_MEMBER_NAME } from "./member-names";
import { requireFileAccess, type FileAccess, type FileActor } from "./file-access.server";
import { type AgreementRow, createBlocker, fullName, memberOf, type SignatureRow } from "./agreement-records.server";

const iso = (v: Date | string) => new Date(v).toISOString();


// ---------------------------------------------------------------------------------------------
// Reading

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
