// The forms of the fee-sharing agreement (one zod schema each, on the client and the server).
import { z } from "zod";
import {
  AGREEMENT_MESSAGES,
  allowedDueTerms,
  CLAUSES_MAX_LENGTH,
  DUE_TERMS,
  OPERATION_TYPES,
  PAYERS,
  SELLER_ADVISERS,
  splitProblem,
} from "./agreement-rules";
import { AMOUNT_BANDS } from "./collaboration-rules";
import { checkSiren, SIREN_MESSAGES } from "~/features/trust/siren";

// Control characters (but line breaks and tabs), lone surrogates and format characters cannot be
// stored (PostgreSQL refuses NUL) nor drawn in the PDF: dropped.
const UNPRINTABLE = /(?![\n\t])[\p{Cc}\p{Cs}\p{Cf}]/gu;

const line = (message: string, max: number) =>
  z
    .string({ error: message })
    .transform((v) => v.replace(UNPRINTABLE, "").replace(/\s+/g, " ").trim())
    .pipe(z.string().min(1, message).max(max, AGREEMENT_MESSAGES.firmTooLong));

const siren = z.string({ error: SIREN_MESSAGES.empty }).transform((v, ctx) => {
  const checked = checkSiren(v);
  if (!checked.ok) {
    ctx.addIssue({ code: "custom", message: SIREN_MESSAGES[checked.problem] });
    return z.NEVER;
  }
  return checked.display;
});

// One signer's firm as the agreement names it (the `my…` and `their…` fields of the form).
const company = line(AGREEMENT_MESSAGES.firmCompany, 200);
const legalForm = line(AGREEMENT_MESSAGES.firmLegalForm, 80);
const address = line(AGREEMENT_MESSAGES.firmAddress, 300);
const capacity = line(AGREEMENT_MESSAGES.firmCapacity, 120);

const share = z.coerce
  .number({ error: AGREEMENT_MESSAGES.share })
  .int(AGREEMENT_MESSAGES.share)
  .min(1, AGREEMENT_MESSAGES.share)
  .max(99, AGREEMENT_MESSAGES.share);

export const agreementSchema = z
  .object({
    operationType: z.enum(OPERATION_TYPES, { error: AGREEMENT_MESSAGES.operationType }),
    myShare: share,
    theirShare: share,
    payer: z.enum(PAYERS, { error: AGREEMENT_MESSAGES.payer }),
    sellerAdviser: z.enum(SELLER_ADVISERS, { error: AGREEMENT_MESSAGES.sellerAdviser }),
    amountBand: z.enum(AMOUNT_BANDS, { error: AGREEMENT_MESSAGES.amountBand }).optional(),
    dueTerm: z.enum(DUE_TERMS, { error: AGREEMENT_MESSAGES.dueTerm }),
    myCompany: company,
    myLegalForm: legalForm,
    mySiren: siren,
    myAddress: address,
    myCapacity: capacity,
    theirCompany: company,
    theirLegalForm: legalForm,
    theirSiren: siren,
    theirAddress: address,
    theirCapacity: capacity,
    clauses: z
      .string({ error: AGREEMENT_MESSAGES.clausesTooLong })
      .transform((v) => v.replace(/\r\n?/g, "\n").replace(UNPRINTABLE, "").trim())
      .pipe(z.string().max(CLAUSES_MAX_LENGTH, AGREEMENT_MESSAGES.clausesTooLong))
      .optional(),
  })
  .superRefine((v, ctx) => {
    if (splitProblem(v.myShare, v.theirShare) === "sum") ctx.addIssue({ code: "custom", message: AGREEMENT_MESSAGES.sum, path: ["theirShare"] });
    if (!allowedDueTerms(v.operationType).includes(v.dueTerm)) {
      ctx.addIssue({ code: "custom", message: AGREEMENT_MESSAGES.dueTermHoguet, path: ["dueTerm"] });
    }
  })
  .transform((v) => ({ ...v, clauses: v.clauses ? v.clauses : null, amountBand: v.amountBand ?? null }));

export type AgreementInput = z.output<typeof agreementSchema>;

/**
 * Signing one version: the version and the SHA-256 of the document the member read (a newer
 * version or other bytes are refused), an explicit consent, and the password — or, when the
 * account has two-factor authentication, a code of the authenticator app.
 */
export const signAgreementSchema = z.object({
  agreementId: z.string({ error: AGREEMENT_MESSAGES.outdated }).trim().regex(/^[0-9a-f-]{36}$/i, AGREEMENT_MESSAGES.outdated),
  documentSha256: z.string({ error: AGREEMENT_MESSAGES.outdated }).trim().regex(/^[0-9a-f]{64}$/, AGREEMENT_MESSAGES.outdated),
  consent: z.literal("on", { error: AGREEMENT_MESSAGES.consent }),
  password: z.string({ error: AGREEMENT_MESSAGES.credential }).max(500, AGREEMENT_MESSAGES.wrongPassword).optional(),
  code: z
    .string({ error: AGREEMENT_MESSAGES.code })
    .transform((v) => v.replace(/\s/g, ""))
    .pipe(z.string().regex(/^\d{6}$/, AGREEMENT_MESSAGES.code))
    .optional(),
});

export type SignAgreementInput = z.output<typeof signAgreementSchema>;
