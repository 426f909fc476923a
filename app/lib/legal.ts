// Identity of the company operating the site, shown on the legal pages (mentions légales, CGU,
// privacy and cookie policies) and on the support page.
//
// EDIT THESE VALUES BEFORE GOING LIVE. Every value still wrapped in "[… — à compléter]" is a
// placeholder: the pages render it highlighted so that a missing identifier is obvious.
// This is a plain object (not environment variables) because route components also render in
// the browser, where server environment variables are not available.

const TO_COMPLETE = "à compléter";

function placeholder(label: string): string {
  return `[${label} — ${TO_COMPLETE}]`;
}

export const LEGAL_IDENTITY = {
  /** Company name (raison sociale). */
  companyName: placeholder("Raison sociale de l'exploitant"),
  /** Legal form, e.g. SAS, SARL. */
  legalForm: placeholder("Forme juridique"),
  /** Share capital, e.g. "10 000 €". */
  shareCapital: placeholder("Capital social"),
  /** Trade register entry, e.g. "RCS Paris 123 456 789". */
  rcs: placeholder("Immatriculation au RCS (ville et numéro)"),
  /** SIRET of the head office (14 digits). */
  siret: placeholder("Numéro SIRET"),
  /** Intra-community VAT number. */
  vatNumber: placeholder("Numéro de TVA intracommunautaire"),
  /** Head office postal address. */
  headOffice: placeholder("Adresse du siège social"),
  /** Publication director (directeur de la publication): a natural person. */
  publicationDirector: placeholder("Nom du directeur de la publication"),
  /** Hosting provider: name, then postal address. */
  hostName: placeholder("Nom de l'hébergeur"),
  hostAddress: placeholder("Adresse de l'hébergeur"),
  /** Transactional e-mail provider (processor named in the privacy policy). */
  emailProvider: placeholder("Prestataire d'envoi des e-mails"),
  /** Payment provider (processor named in the privacy policy). */
  paymentProvider: "Stripe Payments Europe, Ltd. (Dublin, Irlande)",
  /** General contact address for legal matters. */
  contactEmail: placeholder("Adresse e-mail de contact"),
  /** Address for exercising GDPR rights (may equal contactEmail). */
  privacyEmail: placeholder("Adresse e-mail dédiée aux données personnelles"),
  /** Technical support address shown on /support. */
  supportEmail: placeholder("Adresse e-mail du support technique"),
} as const;

export type LegalIdentityKey = keyof typeof LEGAL_IDENTITY;

/** True while a value is still the "[… — à compléter]" placeholder. */
export function isLegalPlaceholder(value: string): boolean {
  return value.startsWith("[") && value.endsWith(`${TO_COMPLETE}]`);
}

/** Date shown as "Dernière mise à jour" on the legal pages; update it with the texts. */
export const LEGAL_LAST_UPDATED = "21 novembre 2026";
