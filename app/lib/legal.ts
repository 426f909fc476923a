// Identity of the company operating the site, shown on the legal pages (mentions légales, CGU,
// privacy and cookie policies), the contact and support pages.
//
// It comes from environment variables (LEGAL_*, validated in env.server.ts): an https APP_URL
// refuses to start while one is missing, so a public deployment never shows a placeholder. In
// local mode a missing value renders as a highlighted "[… — à compléter]". The root loader sends
// the identity to the pages (useLegalIdentity), which also render in the browser.
import { useRouteLoaderData } from "react-router";

const TO_COMPLETE = "à compléter";

function placeholder(label: string): string {
  return `[${label} — ${TO_COMPLETE}]`;
}

/** Each field, its environment variable and what it means (the placeholder's label). */
export const LEGAL_FIELDS = {
  companyName: { env: "LEGAL_COMPANY_NAME", label: "Raison sociale de l’exploitant" },
  legalForm: { env: "LEGAL_FORM", label: "Forme juridique" },
  shareCapital: { env: "LEGAL_SHARE_CAPITAL", label: "Capital social" },
  rcs: { env: "LEGAL_RCS", label: "Immatriculation au RCS (ville et numéro)" },
  siret: { env: "LEGAL_SIRET", label: "Numéro SIRET" },
  vatNumber: { env: "LEGAL_VAT_NUMBER", label: "Numéro de TVA intracommunautaire" },
  headOffice: { env: "LEGAL_HEAD_OFFICE", label: "Adresse du siège social" },
  publicationDirector: { env: "LEGAL_PUBLICATION_DIRECTOR", label: "Nom du directeur de la publication" },
  hostName: { env: "LEGAL_HOST_NAME", label: "Nom de l’hébergeur" },
  hostAddress: { env: "LEGAL_HOST_ADDRESS", label: "Adresse de l’hébergeur" },
  emailProvider: { env: "LEGAL_EMAIL_PROVIDER", label: "Prestataire d’envoi des e-mails" },
  contactEmail: { env: "LEGAL_CONTACT_EMAIL", label: "Adresse e-mail de contact" },
  phone: { env: "LEGAL_PHONE", label: "Numéro de téléphone" },
} as const;

/** Every LEGAL_* variable read: the fields above and the two optional addresses. */
export const LEGAL_VARIABLES: readonly string[] = [...Object.values(LEGAL_FIELDS).map((f) => f.env), "LEGAL_PRIVACY_EMAIL", "LEGAL_SUPPORT_EMAIL"];

export type LegalIdentity = Record<keyof typeof LEGAL_FIELDS, string> & {
  /** Address for exercising GDPR rights (LEGAL_PRIVACY_EMAIL, else the contact address). */
  privacyEmail: string;
  /** Technical support address shown on /support (LEGAL_SUPPORT_EMAIL, else the contact address). */
  supportEmail: string;
  /** Payment provider (processor named in the privacy policy). */
  paymentProvider: string;
  /** VAT franchise (art. 293 B du CGI, LEGAL_VAT_FRANCHISE): invoices carry no VAT. */
  vatFranchise: boolean;
};

/** The identity from configuration; a missing value becomes its placeholder. */
export function legalIdentityFrom(values: Partial<Record<string, string | undefined>>): LegalIdentity {
  const out = {} as Record<keyof typeof LEGAL_FIELDS, string>;
  for (const [key, field] of Object.entries(LEGAL_FIELDS) as Array<[keyof typeof LEGAL_FIELDS, { env: string; label: string }]>) {
    out[key] = values[field.env]?.trim() || placeholder(field.label);
  }
  return {
    ...out,
    privacyEmail: values.LEGAL_PRIVACY_EMAIL?.trim() || out.contactEmail,
    supportEmail: values.LEGAL_SUPPORT_EMAIL?.trim() || out.contactEmail,
    paymentProvider: "Stripe Payments Europe, Ltd. (Dublin, Irlande)",
    vatFranchise: ["true", "1", "yes"].includes(values.LEGAL_VAT_FRANCHISE?.trim() ?? ""),
  };
}

/** The environment variables still missing (what an https deployment must set). */
export function missingLegalVariables(values: Partial<Record<string, string | undefined>>): string[] {
  return Object.values(LEGAL_FIELDS)
    .map((f) => f.env)
    .filter((name) => !values[name]?.trim());
}

/** The operator's identity in a page component (sent by the root loader). */
export function useLegalIdentity(): LegalIdentity {
  const root = useRouteLoaderData("root") as { legal?: LegalIdentity } | undefined;
  return root?.legal ?? legalIdentityFrom({});
}

export type LegalIdentityKey = keyof LegalIdentity;

/** True while a value is still the "[… — à compléter]" placeholder. */
export function isLegalPlaceholder(value: string): boolean {
  return value.startsWith("[") && value.endsWith(`${TO_COMPLETE}]`);
}

/** Date shown as "Dernière mise à jour" on the legal pages; update it with the texts. */
export const LEGAL_LAST_UPDATED = "28 novembre 2026";
