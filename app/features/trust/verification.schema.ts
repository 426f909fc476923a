// The verification form (onboarding step and /parametres): one zod schema, checked on the client
// and the server. The registration rule depends on the member's profession, the end date on today.
import { z } from "zod";
import { checkSiren, SIREN_MESSAGES } from "./siren";
import { checkInsuranceEndDate, checkRegistration } from "./verification-rules";

export const INSURANCE_MAX_MB = 10;

export const VERIFICATION_MESSAGES = {
  noFile: "Joignez votre attestation d’assurance responsabilité civile professionnelle (PDF, JPEG ou PNG)",
  wrongType: "L’attestation doit être un PDF ou une image JPEG ou PNG",
  tooLarge: `L’attestation dépasse ${INSURANCE_MAX_MB}\u00a0Mo`,
  tooManyUploads: "Trop d’attestations envoyées en peu de temps. Veuillez réessayer plus tard.",
  notFound: "Ce document n’existe pas.",
  saved: "Vos justificatifs ont été enregistrés",
  renewed: "Nouvelle attestation enregistrée",
  renewedDescription: "L’équipe la vérifiera prochainement.",
} as const;

const plain = (label: string, max: number) =>
  z
    .string({ error: `${label} est obligatoire` })
    .trim()
    .min(1, `${label} est obligatoire`)
    .max(max, `${label} ne doit pas dépasser ${max} caractères`)
    .refine((v) => !/[<>]|https?:|www\./i.test(v), `${label} ne doit pas contenir de lien`);

export const insuranceFieldsSchema = (today: string) =>
  z.object({
    insurer: plain("L’assureur", 120),
    policyNumber: plain("Le numéro de contrat", 60).refine((v) => /^[\p{L}\p{N}][\p{L}\p{N} ./_-]*$/u.test(v), "Le numéro de contrat ne peut contenir que des lettres, des chiffres, des espaces, des points, des tirets et des barres obliques"),
    insuranceEndsOn: z
      .string({ error: "La date de fin de validité est obligatoire" })
      .trim()
      .min(1, "La date de fin de validité est obligatoire")
      .superRefine((v, ctx) => {
        const problem = checkInsuranceEndDate(v, today);
        if (problem) ctx.addIssue({ code: "custom", message: problem });
      }),
  });

export function verificationSchema(profession: string, today: string) {
  const currentYear = Number(today.slice(0, 4));
  return z
    .object({
      siren: z.string({ error: SIREN_MESSAGES.empty }).max(40, SIREN_MESSAGES.length),
      registrationValue: z.string().max(200).optional(),
      registrationYear: z.string().max(10).optional(),
    })
    .and(insuranceFieldsSchema(today))
    .transform((v, ctx) => {
      const siren = checkSiren(v.siren);
      if (!siren.ok) ctx.addIssue({ code: "custom", message: SIREN_MESSAGES[siren.problem], path: ["siren"] });
      const registration = checkRegistration(profession, { value: v.registrationValue ?? "", year: v.registrationYear }, currentYear);
      if (!registration.ok) {
        ctx.addIssue({ code: "custom", message: registration.message, path: [registration.field === "year" ? "registrationYear" : "registrationValue"] });
      }
      if (!siren.ok || !registration.ok) return z.NEVER;
      return {
        siren: { typed: siren.display, digits: siren.digits },
        registration: registration.registration,
        insurer: v.insurer,
        policyNumber: v.policyNumber,
        insuranceEndsOn: v.insuranceEndsOn,
      };
    });
}

export type VerificationInput = z.output<ReturnType<typeof verificationSchema>>;
export type InsuranceFields = z.output<ReturnType<typeof insuranceFieldsSchema>>;
