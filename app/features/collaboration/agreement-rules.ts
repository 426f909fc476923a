// Pure rules of the fee-sharing agreement of a collaboration file (convention de partage
// d'honoraires / co-mandat): the split, when the shares are due (the Hoguet law
// for goodwill sales), the warnings each member's profession calls for, which stages allow it,
// and the text of the agreement and of its signature certificate. Browser-safe.
import { formatDatePattern } from "~/lib/format";
import type { PdfBlock } from "~/lib/pdf/blocks";
import { professionLabel } from "~/db/reference/professions";
import { AMOUNT_BAND_LABELS, isClosed, type AmountBand, type Stage } from "./collaboration-rules";

/**
 * The operation the two members advise on. Older versions may hold "titres",
 * "fonds_de_commerce" or "autre" only; every type stays readable.
 */
export const OPERATION_TYPES = ["titres", "fonds_de_commerce", "location_gerance", "apport_partiel", "autre"] as const;
export type OperationType = (typeof OPERATION_TYPES)[number];

export const OPERATION_TYPE_LABELS: Record<OperationType, string> = {
  titres: "Cession de titres (parts sociales ou actions)",
  fonds_de_commerce: "Cession de fonds de commerce",
  location_gerance: "Location-gérance de fonds de commerce",
  apport_partiel: "Apport partiel d’actif",
  autre: "Autre opération (fusion, levée de fonds…)",
};

/** What the agreement says of each operation type: its object, the act the fee waits for, its legal frame. */
export type OperationClauses = {
  /** "dans l'opération suivante : …" */
  object: string;
  /** The act whose signing makes the shares due. */
  act: string;
  /** Loi Hoguet (n° 70-9 du 2 janvier 1970, art. 1, 2°): sales and lease-management of goodwill. */
  hoguet: boolean;
  /** The paragraphs of the article on the legal frame. */
  legal: readonly string[];
};

/** "de l'acte…", "du contrat…": French contracts "de le" into "du". */
const ofAct = (act: string) => (act.startsWith("le ") ? `du ${act.slice(3)}` : `de ${act}`);

const HOGUET_FRAME = (act: string) =>
  `L’opération entre dans le champ de la loi n° 70-9 du 2 janvier 1970 (loi Hoguet) et de son décret d’application n° 72-678 du 20 juillet 1972. Chaque partie déclare être titulaire de la carte professionnelle portant la mention «\u00a0Transactions sur immeubles et fonds de commerce\u00a0» (carte T), ou relever d’une profession que la loi dispense de cette carte, et détenir de son mandant un mandat écrit, préalable à son intervention et inscrit à son registre des mandats. Conformément à l’article 6 de la loi, aucune somme n’est due à l’une ou l’autre partie avant que l’opération soit effectivement conclue et constatée par un acte écrit\u00a0: la part de chacune n’est due qu’à la signature ${ofAct(act)}, et à cette seule condition.`;

export const OPERATION_CLAUSES: Record<OperationType, OperationClauses> = {
  titres: {
    object: "la cession de titres (parts sociales ou actions) d’une société",
    act: "l’acte de cession des titres",
    hoguet: false,
    legal: [
      "L’opération porte sur des titres de société\u00a0: elle relève du droit commun de la vente (articles 1582 et suivants du code civil) et, selon la forme de la société, des règles de forme et d’agrément du code de commerce (notamment ses articles L. 221-14, L. 223-14 et L. 228-23). Chaque partie intervient au titre d’un mandat écrit de son mandant.",
    ],
  },
  fonds_de_commerce: {
    object: "la cession d’un fonds de commerce",
    act: "l’acte de cession du fonds de commerce",
    hoguet: true,
    legal: [
      HOGUET_FRAME("l’acte de cession du fonds de commerce"),
      "La cession obéit en outre aux dispositions du code de commerce relatives au fonds de commerce (livre Ier, titre IV).",
    ],
  },
  location_gerance: {
    object: "la mise en location-gérance d’un fonds de commerce",
    act: "le contrat de location-gérance",
    hoguet: true,
    legal: [
      HOGUET_FRAME("le contrat de location-gérance"),
      "La location-gérance est régie par les articles L. 144-1 et suivants du code de commerce.",
    ],
  },
  apport_partiel: {
    object: "l’apport partiel d’actif d’une branche d’activité",
    act: "l’acte constatant la réalisation définitive de l’apport",
    hoguet: false,
    legal: [
      "L’apport partiel d’actif est réalisé selon le traité d’apport approuvé par les sociétés concernées et, lorsqu’il est placé sous le régime des scissions, selon les articles L. 236-27 et suivants du code de commerce. Chaque partie intervient au titre d’un mandat écrit de son mandant.",
    ],
  },
  autre: {
    object: "l’opération décrite aux clauses particulières",
    act: "l’acte constatant l’opération",
    hoguet: false,
    legal: ["Chaque partie intervient au titre d’un mandat écrit de son mandant et déclare que l’opération relève de son activité professionnelle réglementée."],
  },
};

export const DUE_TERMS = ["deed", "deed_plus_30"] as const;
export type DueTerm = (typeof DUE_TERMS)[number];

export const DUE_TERM_LABELS: Record<DueTerm, string> = {
  deed: "À la signature de l’acte constatant l’opération",
  deed_plus_30: "Dans les 30 jours suivant la signature de l’acte constatant l’opération",
};

/** Who collects the fee from their client and pays the other member's share, from the form's side. */
export const PAYERS = ["me", "them"] as const;
export type Payer = (typeof PAYERS)[number];

/** Who holds the seller's mandate (conseil du cédant), from the form's side; the other advises the buyer. */
export const SELLER_ADVISERS = ["me", "them"] as const;
export type SellerAdviser = (typeof SELLER_ADVISERS)[number];

export const ROLE_LABELS = { seller: "conseil du cédant", buyer: "conseil de l’acquéreur" } as const;

export const CLAUSES_MAX_LENGTH = 2000;

/**
 * Loi n° 70-9 du 2 janvier 1970 (loi Hoguet), art. 6: no sum is due to an intermediary before
 * the operation is concluded and recorded in one written act. For a goodwill sale or lease the
 * only term offered is therefore the signing of the act.
 */
export const HOGUET_NOTE =
  "Pour une cession ou une location-gérance de fonds de commerce, la loi Hoguet (loi n° 70-9 du 2 janvier 1970, art. 6) interdit toute rémunération avant que l’opération soit effectivement conclue et constatée par un acte écrit\u00a0: la part de chacun est due à la signature de l’acte, et à cette seule condition.";

/** The terms allowed for an operation: the act only where the Hoguet law applies. */
export function allowedDueTerms(operation: OperationType): readonly DueTerm[] {
  return OPERATION_CLAUSES[operation].hoguet ? ["deed"] : DUE_TERMS;
}

/** When the shares are due, in the words of the operation's act. */
export function dueText(operation: OperationType, term: DueTerm): string {
  const act = ofAct(OPERATION_CLAUSES[operation].act);
  return term === "deed" ? `À la signature ${act}` : `Dans les 30 jours suivant la signature ${act}`;
}

export const AGREEMENT_MESSAGES = {
  operationType: "Choisissez le type d’opération.",
  share: "Chaque part est un pourcentage entier compris entre 1 et 99.",
  sum: "Les deux parts doivent totaliser 100\u00a0%.",
  payer: "Indiquez qui perçoit les honoraires et reverse la part de l’autre.",
  sellerAdviser: "Indiquez qui détient le mandat du cédant.",
  amountBand: "Choisissez une tranche de montant dans la liste.",
  firmCompany: "Indiquez la dénomination de la structure.",
  firmLegalForm: "Indiquez la forme juridique (SAS, SARL, SELARL, entreprise individuelle…).",
  firmAddress: "Indiquez l’adresse du siège ou du cabinet.",
  firmCapacity: "Indiquez en quelle qualité la personne signe (présidente, gérant, associé…).",
  firmTooLong: "Ce champ est trop long.",
  dueTerm: "Choisissez quand la part est due.",
  dueTermHoguet: "Pour une cession ou une location-gérance de fonds de commerce, la part n’est due qu’à la signature de l’acte (loi Hoguet).",
  clausesTooLong: `Les clauses particulières ne peuvent pas dépasser ${new Intl.NumberFormat("fr-FR").format(CLAUSES_MAX_LENGTH)} caractères.`,
  consent: "Cochez la case pour confirmer que vous signez la convention.",
  credential: "Saisissez votre mot de passe pour signer.",
  code: "Saisissez le code à 6 chiffres de votre application d’authentification.",
  wrongPassword: "Mot de passe incorrect",
  wrongCode: "Code incorrect. Vérifiez l’heure de votre téléphone et réessayez.",
  codeReused: "Ce code a déjà été utilisé. Attendez le code suivant de votre application.",
  tooManyAttempts: "Trop de tentatives de signature. Veuillez réessayer dans quelques minutes.",
  tooManyExports: "Trop d’exports en peu de temps. Veuillez réessayer plus tard.",
  tooManyPreviews: "Trop d’aperçus en peu de temps. Veuillez réessayer plus tard.",
  notFound: "Cette convention n’existe pas.",
  outdated: "Cette version de la convention n’est plus celle en vigueur\u00a0: rechargez la page et relisez la nouvelle version avant de signer.",
  alreadySigned: "Vous avez déjà signé cette version de la convention.",
  signedFinal: "La convention a été signée par les deux membres\u00a0: elle ne peut plus être modifiée.",
  closedCreate: "Ce dossier est clos\u00a0: une convention ne peut plus y être proposée.",
  closedSign: "Ce dossier a été abandonné\u00a0: la convention ne peut plus être signée.",
  counterpartGone: "Votre confrère a quitté le réseau\u00a0: aucune convention ne peut plus être proposée dans ce dossier.",
  created: "Convention proposée\u00a0: votre confrère est invité à la signer.",
  signed: "Convention signée.",
  completed: "Convention signée par les deux membres.",
  storeFailed: "La convention n’a pas pu être enregistrée. Veuillez réessayer.",
  archiveNotConcluded: "L’archive de clôture se télécharge une fois le dossier conclu.",
  sealUnavailable: "Le service d’horodatage du cachet électronique ne répond pas\u00a0: rien n’a été signé ni exporté. Veuillez réessayer dans quelques minutes.",
} as const;

export type SplitProblem = "share" | "sum";

/** Why two shares (percent, whole numbers) cannot be the split, or null when they can. */
export function splitProblem(mine: number, theirs: number): SplitProblem | null {
  for (const share of [mine, theirs]) {
    if (!Number.isInteger(share) || share < 1 || share > 99) return "share";
  }
  return mine + theirs === 100 ? null : "sum";
}

/** A new version is proposed on a working file only (not concluded, not abandoned). */
export function canCreateAgreement(stage: Stage): boolean {
  return !isClosed(stage);
}

/**
 * A proposed version can still be signed once the file is concluded (the fee falls due with the
 * deed, and the agreement is the evidence of it); an abandoned file signs nothing more.
 */
export function canSignAgreement(stage: Stage): boolean {
  return stage !== "abandoned";
}

// ---------------------------------------------------------------------------------------------
// Professions

export type WarningCode = "lawyer-referral" | "notary-regulated-fees" | "accountant-accessory";

export type ProfessionWarning = { code: WarningCode; name: string; text: string };

export type WarningParty = { name: string; profession: string | null; pays?: boolean };

const LAWYERS = new Set(["avocat_affaires", "avocat_fiscaliste"]);

/**
 * The warnings the members' professions call for: a lawyer may not receive (nor pay) a fee for
 * bringing in business (RIN, art. 11.3); a notary may not share the regulated fees of the tariff;
 * a chartered accountant acts as an intermediary only as an accessory activity.
 */
export function professionWarnings(parties: readonly WarningParty[]): ProfessionWarning[] {
  const out: ProfessionWarning[] = [];
  for (const p of parties) {
    if (p.profession && LAWYERS.has(p.profession)) {
      out.push({
        code: "lawyer-referral",
        name: p.name,
        text: `${p.name} est avocat\u00a0: le Règlement intérieur national de la profession d’avocat (art. 11.3) lui interdit de percevoir${p.pays ? " comme de verser" : ""} une rémunération pour un apport d’affaires. Sa part ne peut rémunérer que des diligences effectivement accomplies dans l’opération\u00a0; décrivez-les dans les clauses particulières.`,
      });
    } else if (p.profession === "notaire") {
      out.push({
        code: "notary-regulated-fees",
        name: p.name,
        text: `${p.name} est notaire\u00a0: les émoluments réglementés du tarif des notaires ne peuvent pas être partagés. La convention ne peut porter que sur des honoraires librement convenus (négociation, conseil), dans le respect de la déontologie notariale.`,
      });
    } else if (p.profession === "expert_comptable") {
      out.push({
        code: "accountant-accessory",
        name: p.name,
        text: `${p.name} est expert-comptable\u00a0: l’activité d’intermédiaire ne peut être exercée qu’à titre accessoire de ses missions (ordonnance n° 45-2138 du 19 septembre 1945, art. 22), sans en devenir l’activité principale.`,
      });
    }
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// The terms, as frozen in a version

/** A signer's firm, as the agreement identifies it (absent from older versions). */
export type Firm = { company: string; legalForm: string; siren: string; address: string; capacity: string };

export type AgreementParty = {
  side: "a" | "b";
  firm?: Firm;
  name: string;
  company: string | null;
  profession: string | null;
  mandateLabel: string;
  share: number;
};

export type AgreementTerms = {
  operationType: OperationType;
  /** The side advising the seller (absent from older versions). */
  sellerSide?: "a" | "b";
  /** The indicative size of the operation, when the members state it. */
  amountBand?: AmountBand | null;
  dueTerm: DueTerm;
  payerSide: "a" | "b";
  /** Who proposed this version. */
  createdBySide?: "a" | "b";
  clauses: string | null;
  /** Side "a" first. */
  parties: [AgreementParty, AgreementParty];
};


function professionText(code: string | null): string | null {
  return code ? professionLabel(code) : null;
}

/** How the agreement names a party: the firm and who signs for it in what capacity, then its role. */
export function partyLine(p: AgreementParty, sellerSide: "a" | "b" | undefined): string {
  const role = sellerSide ? `, ${ROLE_LABELS[p.side === sellerSide ? "seller" : "buyer"]}` : "";
  if (!p.firm) {
    const who = [p.name, professionText(p.profession), p.company].filter(Boolean).join(", ");
    return `${who}${role} — titulaire du ${p.mandateLabel}`;
  }
  const f = p.firm;
  const profession = professionText(p.profession);
  return `${f.company}, ${f.legalForm}, SIREN ${f.siren}, dont le siège ou le cabinet est situé ${f.address}, représentée par ${p.name}${profession ? ` (${profession})` : ""}, en qualité de ${f.capacity}${role}, titulaire du ${p.mandateLabel}`;
}

const percent = (n: number) => `${n}\u00a0%`;
const lowerFirst = (text: string) => text.charAt(0).toLowerCase() + text.slice(1);

/** The text of one version of the agreement, block by block (the PDF draws these). */
export function agreementBlocks(
  terms: AgreementTerms,
  meta: { version: number; fileReference: string; createdAt: Date; createdByName: string; draft?: boolean },
): PdfBlock[] {
  const [a, b] = terms.parties;
  const payer = terms.payerSide === "a" ? a : b;
  const payee = terms.payerSide === "a" ? b : a;
  const operation = OPERATION_CLAUSES[terms.operationType];
  const warnings = professionWarnings(terms.parties.map((p) => ({ name: p.name, profession: p.profession, pays: p.side === terms.payerSide })));
  let n = 0;
  const article = (title: string): PdfBlock => ({ kind: "heading", text: `Article ${++n} — ${title}` });
  const blocks: PdfBlock[] = [
    { kind: "title", text: "Convention de partage d’honoraires" },
    { kind: "subtitle", text: `Co-mandat — dossier de rapprochement ${meta.fileReference} — version ${meta.version}` },
    ...(meta.draft
      ? [{ kind: "heading", text: "Projet — document non signé, sans valeur contractuelle\u00a0: aperçu de la version avant de la proposer." } satisfies PdfBlock]
      : []),
    { kind: "space", text: "" },
    { kind: "text", text: "Entre les soussignés\u00a0:" },
    { kind: "text", text: `1. ${partyLine(a, terms.sellerSide)}\u00a0;` },
    { kind: "text", text: `2. ${partyLine(b, terms.sellerSide)}.` },
    { kind: "text", text: "Ci-après ensemble «\u00a0les parties\u00a0»." },
    article("Objet"),
    {
      kind: "text",
      text: `Les parties interviennent conjointement, chacune au titre de son mandat, dans l’opération suivante\u00a0: ${operation.object}. La présente convention fixe la répartition entre elles des honoraires perçus au titre de cette opération.${terms.amountBand ? ` Montant indicatif de l’opération\u00a0: ${lowerFirst(AMOUNT_BAND_LABELS[terms.amountBand])}.` : ""}`,
    },
    article("Honoraires partagés"),
    {
      kind: "text",
      text: `Sont partagés les honoraires de résultat que ${payer.name} perçoit de son mandant au titre de l’opération, tels que son mandat les fixe. Ils s’entendent hors taxes\u00a0: chaque partie facture sa part hors taxes, la TVA s’y ajoutant au taux en vigueur. Seuls les honoraires effectivement encaissés sont partagés. Sauf clause particulière contraire, les honoraires fixes ou d’étude, les frais et débours, ainsi que les honoraires que ${payee.name} perçoit de son propre mandant, ne sont pas partagés.`,
    },
    article("Répartition"),
    {
      kind: "text",
      text: `Les honoraires hors taxes effectivement perçus au titre de l’opération sont répartis ainsi\u00a0: ${a.name}\u00a0: ${percent(a.share)}\u00a0; ${b.name}\u00a0: ${percent(b.share)}.`,
    },
    article("Règlement"),
    {
      kind: "text",
      text: `${payer.name} perçoit les honoraires auprès de son mandant et reverse à ${payee.name} sa part, soit ${percent(payee.share)} des honoraires hors taxes perçus, sur présentation de sa facture, dans les quinze jours suivant leur encaissement et au plus tôt à l’échéance fixée à l’article suivant.`,
    },
    article("Exigibilité"),
    { kind: "text", text: `${dueText(terms.operationType, terms.dueTerm)}. Aucune part n’est due si l’opération n’est pas conclue.` },
    article("Cadre légal de l’opération"),
    ...operation.legal.map((text): PdfBlock => ({ kind: "text", text })),
    article("Règles professionnelles"),
    {
      kind: "text",
      text: "Chaque partie déclare que la présente convention est compatible avec les règles de sa profession et qu’elle en a vérifié les conditions.",
    },
    ...warnings.map((w): PdfBlock => ({ kind: "small", text: `Avertissement\u00a0: ${w.text}` })),
    article("Clauses particulières"),
    { kind: "text", text: terms.clauses?.trim() ? terms.clauses.trim() : "Néant." },
    article("Droit applicable, médiation et juridiction"),
    {
      kind: "text",
      text: "La présente convention est soumise au droit français. En cas de différend relatif à sa validité, à son interprétation ou à son exécution, les parties recourent d’abord, avant toute action en justice, à la médiation proposée par la plateforme (onglet «\u00a0Médiation\u00a0» du dossier de rapprochement). Si le différend n’est pas résolu dans les deux mois suivant la demande de médiation, la partie la plus diligente peut saisir la juridiction compétente selon les règles de droit commun.",
    },
    { kind: "heading", text: "Signature" },
    {
      kind: "text",
      text: "La présente convention est signée électroniquement par chacune des parties sur la plateforme (signature électronique simple\u00a0: consentement exprès et authentification du signataire). Le certificat de signature est joint en dernière page de l’exemplaire signé.",
    },
    {
      kind: "small",
      text: meta.draft
        ? `Projet de version ${meta.version} établi le ${formatDatePattern(meta.createdAt, "dd/MM/yyyy 'à' HH:mm")} par ${meta.createdByName}, non encore proposé.`
        : `Version ${meta.version} proposée le ${formatDatePattern(meta.createdAt, "dd/MM/yyyy 'à' HH:mm")} par ${meta.createdByName}.`,
    },
  ];
  return blocks;
}

export type SignatureRecord = {
  signerName: string;
  signedAt: Date;
  ipAddress: string | null;
  userAgent: string | null;
  method: string;
  documentSha256: string;
};

export const SIGNATURE_METHOD_LABELS: Record<string, string> = {
  password: "case de consentement cochée et mot de passe du compte saisi à nouveau",
  totp: "case de consentement cochée et code de double authentification (application) saisi",
};

/** The certificate page added after the original pages once both members signed. */
export function certificateBlocks(input: {
  agreementId: string;
  version: number;
  fileReference: string;
  documentSha256: string;
  signatures: SignatureRecord[];
  completedAt: Date;
}): PdfBlock[] {
  const blocks: PdfBlock[] = [
    { kind: "title", text: "Certificat de signature électronique" },
    { kind: "subtitle", text: `Convention de partage d’honoraires — version ${input.version}` },
    { kind: "small", text: `Dossier de rapprochement ${input.fileReference} · identifiant de la convention\u00a0: ${input.agreementId}` },
    { kind: "heading", text: "Document signé" },
    { kind: "text", text: "Empreinte SHA-256 du document original (les pages qui précèdent, inchangées)\u00a0:" },
    { kind: "mono", text: input.documentSha256 },
  ];
  input.signatures.forEach((s, i) => {
    blocks.push(
      { kind: "heading", text: `Signataire ${i + 1}\u00a0: ${s.signerName}` },
      { kind: "text", text: `Signé le ${formatDatePattern(s.signedAt, "dd/MM/yyyy 'à' HH:mm")} (heure de Paris) — ${s.signedAt.toISOString()} (UTC)` },
      { kind: "text", text: `Méthode\u00a0: ${SIGNATURE_METHOD_LABELS[s.method] ?? s.method}` },
      { kind: "text", text: `Adresse IP\u00a0: ${s.ipAddress ?? "inconnue"}` },
      { kind: "text", text: `Navigateur\u00a0: ${s.userAgent ?? "inconnu"}` },
      { kind: "text", text: "Empreinte SHA-256 du document signé\u00a0:" },
      { kind: "mono", text: s.documentSha256 },
    );
  });
  blocks.push(
    { kind: "space", text: "" },
    {
      kind: "small",
      text: `Signatures complètes le ${formatDatePattern(input.completedAt, "dd/MM/yyyy 'à' HH:mm")} (heure de Paris). Signature électronique simple au sens de l’article 1367 du code civil et du règlement (UE) n° 910/2014 (eIDAS). Pour vérifier que les pages qui précèdent n’ont pas été modifiées, téléchargez depuis le dossier le document original (sans certificat) et calculez son empreinte SHA-256\u00a0: elle doit être identique à celle ci-dessus. L’empreinte de l’exemplaire signé est affichée dans le dossier, onglet «\u00a0Convention\u00a0».`,
    },
  );
  return blocks;
}

// ---------------------------------------------------------------------------------------------
// Addresses

export function agreementUrl(fileId: string): string {
  return `/dashboard/dossiers/${fileId}/convention`;
}

/** Where the proposal form is posted for a draft PDF (« Aperçu du PDF »). */
export function agreementPreviewUrl(fileId: string): string {
  return `${agreementUrl(fileId)}/apercu`;
}

/** The PDF of a version: the document to sign ("original") or the signed copy with its certificate. */
export function agreementPdfUrl(fileId: string, agreementId: string, copy: "original" | "signed"): string {
  return `${agreementUrl(fileId)}/${agreementId}?exemplaire=${copy === "signed" ? "signe" : "original"}`;
}

export function evidenceUrl(fileId: string): string {
  return `/dashboard/dossiers/${fileId}/historique`;
}

/** The closing archive of a concluded file (ZIP with its sealed manifest). */
export function closingArchiveUrl(fileId: string): string {
  return `/dashboard/dossiers/${fileId}/archive`;
}

/** A file name for a download: "convention-v2-signee-2026-11-24.pdf". */
export function agreementFileName(version: number, signed: boolean): string {
  return `convention-honoraires-v${version}${signed ? "-signee" : ""}.pdf`;
}

export type { PdfBlock } from "~/lib/pdf/blocks";
