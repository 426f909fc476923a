// The billing details form of /parametres/facturation: one zod schema for client and server.
import { z } from "zod";

export const BILLING_INTENT = "billing-details";

export const BILLING_MESSAGES = {
  saved: "Coordonnées de facturation enregistrées",
  savedDescription: "Elles figureront sur vos prochaines factures.",
  companyRequired: "Indiquez la raison sociale à facturer",
  addressRequired: "Indiquez l’adresse de facturation complète",
  sirenInvalid: "Le SIREN compte 9 chiffres (ou le SIRET 14)",
  notFound: "Facture introuvable",
} as const;

export const billingDetailsSchema = z.object({
  intent: z.literal(BILLING_INTENT),
  company: z.string({ error: BILLING_MESSAGES.companyRequired }).trim().min(2, BILLING_MESSAGES.companyRequired).max(200, BILLING_MESSAGES.companyRequired),
  address: z.string({ error: BILLING_MESSAGES.addressRequired }).trim().min(10, BILLING_MESSAGES.addressRequired).max(500, BILLING_MESSAGES.addressRequired),
  siren: z
    .string()
    .trim()
    .max(30, BILLING_MESSAGES.sirenInvalid)
    .optional()
    .refine((v) => !v || /^(\d{9}|\d{14})$/.test(v.replace(/[\s.]/g, "")), BILLING_MESSAGES.sirenInvalid)
    .transform((v) => (v ? v.replace(/[\s.]/g, "").slice(0, 9) : null)),
});

export type BillingDetailsInput = z.infer<typeof billingDetailsSchema>;
