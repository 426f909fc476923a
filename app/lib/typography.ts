// French typography of product text, as pure rules over a text: the browser suite
// applies them to every page it renders (tests/e2e/typography-scan.ts), and `frenchTypography`
// repairs the mechanical cases (demo data, texts built from parts).

export type TypographyRule =
  | "apostrophe"
  | "space-before-punctuation"
  | "missing-space-before-punctuation"
  | "guillemets"
  | "number-spacing"
  | "line-start"
  | "english-word"
  | "sentence-case";

export type TypographyViolation = { rule: TypographyRule; snippet: string; message: string };

/** Non-breaking spaces: U+00A0 (what the texts use) and the narrow U+202F (what Intl prints). */
const NBSP = "\u00a0";
const NB = "[\\u00a0\\u202f]";

/**
 * Texts the specification quotes word for word that break a rule (its straight apostrophes,
 * ordinary spaces before « ! », « ? », « : », its English words): they stay as the specification
 * writes them, so the rules skip them. `X` and `{email}` are the parts the
 * product fills in.
 */
export const SPEC_VERBATIM_EXCEPTIONS: readonly (string | RegExp)[] = [
  "Oops! Page not found",
  "Ce professionnel n'existe pas ou n'est plus disponible.",
  "Secteurs d'expertise",
  "Profil non trouvé. Veuillez compléter votre onboarding d'abord.",
  /Compte freemium : \d+\/3 mandats utilisés ce semestre/,
  "Supprimer le mandat: Êtes-vous sûr de vouloir supprimer ce mandat ? Cette action est irréversible.",
  "Êtes-vous sûr de vouloir supprimer ce mandat ? Cette action est irréversible.",
  "Vous devez accepter la charte d'engagement pour continuer",
  /L'adresse email "[^"]*" n'est pas valide/,
  "L'adresse du client est obligatoire",
  "Erreur lors de l'envoi du message. Veuillez réessayer.",
  "Erreur lors de l'envoi du message",
  "Message envoyé avec succès !",
  "Impossible de charger l'annuaire interne",
  "Impossible de charger l'annuaire",
  "Inscription réussie ! Vérifiez votre email pour confirmer votre compte.",
  "Cette adresse email est déjà utilisée",
  "Paiement réussi !",
  "Erreur d'upload",
  "Impossible d'uploader l'image. Veuillez réessayer.",
  "Recommandation confirmée avec succès !",
  "Limite atteinte : Les membres freemium peuvent créer maximum 3 mandats par semestre",
  "Erreur lors de l'enregistrement : ",
  "Erreur lors de l'envoi de la demande",
  "Demande de mise en relation envoyée !",
  "Mise en relation confirmée ! Les coordonnées ont été échangées par email.",
  "Demande acceptée ! (Erreur lors de l'envoi des emails de confirmation)",
  "Demande acceptée ! En attente de confirmation de l'autre partie.",
  "Votre message a été envoyé avec succès !",
  // English words the specification itself writes.
  "Deals Certifiés",
  /Deal (validé|rejeté) avec succès/,
  "Erreur lors du chargement des deals",
  "Matching pour le mandat",
  // The 'Matching' action on a mandate: the word alone, as the specification names the button.
  /\bMatching\b(?![ \u00a0]*\p{L})/u,
  // The same button with its screen-reader suffix, which some renderings join to the word.
  /\bMatching du mandat\b/u,
  "Exporter les emails",
  "Emails copiés dans le presse-papier",
  // The form label 'Email', required or not.
  /^Email(?: \*)?$/m,
];

/** Titles the specification writes in title case: kept as it writes them. */
export const SPEC_TITLE_EXCEPTIONS: readonly string[] = [
  "Gestion des Mandats",
  "Mes Mandats",
  "Mon Profil Professionnel",
  "Annuaire Interne",
  "Transactions M&A Certifiées",
];

/** Words of English or franglais in labels; their French words are in the message. */
const ENGLISH_WORDS: ReadonlyArray<[RegExp, string]> = [
  [/\bStats\b/i, "Statistiques"],
  [/\bDashboard\b/i, "Tableau de bord"],
  [/\bDeals?\b/i, "transaction(s) certifiée(s) ou opération(s)"],
  [/\bMatching\b/i, "Rapprochements"],
  [/\bUpload(s|er|é|ée|és|ées)?\b/i, "Téléverser, envoyer"],
  [/\bLog(in|out)\b/i, "Connexion, déconnexion"],
  [/\bSettings\b/i, "Paramètres"],
  [/\bOverview\b/i, "Aperçu"],
  [/\bFeedback\b/i, "Avis, retour"],
  [/\bCheckout\b/i, "Paiement"],
  [/\bNewsletter\b/i, "Lettre d’information"],
  [/(?<![-\p{L}])E?mails?\b(?![-@.\w])/iu, "e-mail, courriel"],
];

/**
 * Words that are common nouns or adjectives in our titles: written with a capital after the
 * first word, they break sentence case (« Gestion des Mandats »). Proper nouns and product
 * names (Premium, Freemium, France, LinkedIn, M&A…) are not in the list, nor are people's names.
 */
const COMMON_TITLE_WORDS = new Set(
  (
    "abonnement accueil activité administration aide annuaire aperçu assurance attestation authentification avis " +
    "certifiée certifiées charte compte conditions confiance confrères connexion contact conventions demande demandes " +
    "documents données dossier dossiers engagements envoyées équipe espace évaluation évaluations factures fondateur " +
    "fondateurs gestion générales historique informations inscription interne journal justificatifs légales mandat " +
    "mandats médiation médiations membre membres messages notifications nos offre opérations opportunités paiement " +
    "paramètres parrainage parrainages politique professionnel professionnels profil profils questions rapprochements " +
    "recommandations reçues références relation réputation sécurité sessions statistiques support tableau " +
    "tarifs transactions utilisation valeurs vérification"
  ).split(" "),
);

const STRAIGHT_APOSTROPHE = /[\p{L}]'[\p{L}]/u;

const URL_OR_ADDRESS = [
  /\b(?:https?|otpauth|mailto):\/?\/?[^\s<>"«»]+/g,
  /\bwww\.[^\s<>"«»]+/g,
  /[\w.+-]+@[\w-]+(?:\.[\w-]+)+/g,
  /`[^`]*`/g,
];

const MASK = "\ue000";

function maskPattern(text: string, pattern: string | RegExp): string {
  if (typeof pattern === "string") {
    if (pattern === "") return text;
    return text.split(pattern).join(MASK.repeat(pattern.length));
  }
  const flags = pattern.flags.includes("g") ? pattern.flags : `${pattern.flags}g`;
  return text.replace(new RegExp(pattern.source, flags), (m) => MASK.repeat(m.length));
}

/** The text with URLs, e-mail addresses, inline code and the exceptions blanked out. */
export function maskExceptions(text: string, exceptions: readonly (string | RegExp)[] = SPEC_VERBATIM_EXCEPTIONS): string {
  let out = text;
  for (const pattern of URL_OR_ADDRESS) out = maskPattern(out, pattern);
  for (const pattern of exceptions) out = maskPattern(out, pattern);
  return out;
}

function snippetAt(text: string, index: number, length = 1): string {
  const start = Math.max(0, index - 30);
  const end = Math.min(text.length, index + length + 30);
  return `${start > 0 ? "…" : ""}${text.slice(start, end)}${end < text.length ? "…" : ""}`.replace(/\n/g, " ⏎ ");
}

function collect(
  text: string,
  masked: string,
  pattern: RegExp,
  rule: TypographyRule,
  message: (match: RegExpExecArray) => string,
  out: TypographyViolation[],
) {
  const re = new RegExp(pattern.source, pattern.flags.includes("g") ? pattern.flags : `${pattern.flags}g`);
  for (let m = re.exec(masked); m; m = re.exec(masked)) {
    out.push({ rule, snippet: snippetAt(text, m.index, m[0].length), message: message(m) });
    if (m[0].length === 0) re.lastIndex++;
  }
}

/** A straight apostrophe between letters: French writes ’ (« l’annuaire »). */
export function apostropheViolations(text: string, masked = maskExceptions(text)): TypographyViolation[] {
  const out: TypographyViolation[] = [];
  collect(text, masked, new RegExp(STRAIGHT_APOSTROPHE.source, "gu"), "apostrophe", () => "apostrophe droite : écrire ’", out);
  return out;
}

/**
 * « ; », « : », « ! » and « ? » take a non-breaking space before them: an ordinary space lets
 * the sign start a line, no space at all is English. A colon between digits (14:30) is a time.
 */
export function punctuationSpacingViolations(text: string, masked = maskExceptions(text)): TypographyViolation[] {
  const out: TypographyViolation[] = [];
  collect(text, masked, /[ \t]+[;:!?]/u, "space-before-punctuation", (m) => `espace ordinaire avant « ${m[0].trim()} » : espace insécable`, out);
  collect(
    text,
    masked,
    /[\p{L}\p{N})\]»”"'’%€…][;:!?]+(?=[\s\p{P}]|$)/u,
    "missing-space-before-punctuation",
    (m) => `pas d’espace avant « ${m[0].slice(1)} » : espace insécable`,
    out,
  );
  return out;
}

/** « and » hold their text with non-breaking spaces: « texte ». */
export function guillemetViolations(text: string, masked = maskExceptions(text)): TypographyViolation[] {
  const out: TypographyViolation[] = [];
  collect(text, masked, new RegExp(`«(?!${NB})`, "u"), "guillemets", () => "« sans espace insécable après", out);
  collect(text, masked, new RegExp(`(?<!${NB})»`, "u"), "guillemets", () => "» sans espace insécable avant", out);
  return out;
}

/**
 * Numbers: thousands grouped by a non-breaking space (« 1 250 »), and a non-breaking space
 * between a number and its unit (« 250 € », « 30 % », « 5 Mo »).
 */
export function numberSpacingViolations(text: string, masked = maskExceptions(text)): TypographyViolation[] {
  const out: TypographyViolation[] = [];
  collect(text, masked, /(?<![\d.,])\d{1,3}(?: \d{3})+(?![\d])/u, "number-spacing", () => "chiffres groupés par une espace ordinaire : espace insécable", out);
  collect(text, masked, /\d ?(?:[%€]|[kM]€|[kMG]o\b)/u, "number-spacing", () => "nombre et unité : espace insécable entre les deux", out);
  return out;
}

/** No line of the rendered text starts with a punctuation mark that belongs to the line above. */
export function lineStartViolations(text: string, masked = maskExceptions(text)): TypographyViolation[] {
  const out: TypographyViolation[] = [];
  // A unit alone on its line is the adornment of a field (« € » beside an amount), not a broken line.
  collect(text, masked, /^[ \t\u00a0\u202f]*(?:[;:!?»]|[%€](?![ \t\u00a0\u202f]*$))/mu, "line-start", () => "ligne commençant par un signe de ponctuation", out);
  return out;
}

/** English or franglais words in labels, where a French word fits. */
export function englishWordViolations(text: string, masked = maskExceptions(text)): TypographyViolation[] {
  const out: TypographyViolation[] = [];
  for (const [pattern, french] of ENGLISH_WORDS) {
    collect(text, masked, new RegExp(pattern.source, "giu"), "english-word", (m) => `« ${m[0]} » : en français, ${french}`, out);
  }
  return out;
}

/** Titles in sentence case: after the first word, common words keep their lower case. */
export function sentenceCaseViolations(title: string, masked = maskExceptions(title, [...SPEC_VERBATIM_EXCEPTIONS, ...SPEC_TITLE_EXCEPTIONS])): TypographyViolation[] {
  const out: TypographyViolation[] = [];
  const words = [...masked.matchAll(/[\p{L}][\p{L}’'-]*/gu)];
  for (const [i, w] of words.entries()) {
    if (i === 0) continue;
    const word = w[0];
    const before = masked.slice(0, w.index).trimEnd();
    // A new sentence, a subtitle, a quotation or the site's name after « | » starts with a capital.
    if (/[.!?:—–«(/|·]$/.test(before)) continue;
    if (word[0] !== word[0]!.toLocaleUpperCase("fr") || word === word.toLocaleUpperCase("fr")) continue;
    if (COMMON_TITLE_WORDS.has(word.toLocaleLowerCase("fr"))) {
      out.push({ rule: "sentence-case", snippet: snippetAt(title, w.index!, word.length), message: `« ${word} » : minuscule dans un titre` });
    }
  }
  return out;
}

/** Every rule but sentence case (for titles only) on a text; the exceptions are skipped. */
export function typographyViolations(
  text: string,
  exceptions: readonly (string | RegExp)[] = SPEC_VERBATIM_EXCEPTIONS,
): TypographyViolation[] {
  const masked = maskExceptions(text, exceptions);
  return [
    ...apostropheViolations(text, masked),
    ...punctuationSpacingViolations(text, masked),
    ...guillemetViolations(text, masked),
    ...numberSpacingViolations(text, masked),
    ...lineStartViolations(text, masked),
    ...englishWordViolations(text, masked),
  ];
}

/**
 * The mechanical repairs: ’ for elisions, a non-breaking space before ; : ! ? (in place of an
 * ordinary one), inside « » and in numbers. URLs, addresses and the exceptions are left as they are.
 */
export function frenchTypography(text: string, exceptions: readonly (string | RegExp)[] = SPEC_VERBATIM_EXCEPTIONS): string {
  const masked = maskExceptions(text, exceptions);
  let out = "";
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    const prev = text[i - 1] ?? "";
    const rest = text.slice(i + 1);
    const free = masked[i] !== MASK;
    if (free && c === "'" && /\p{L}/u.test(prev) && /^\p{L}/u.test(rest)) out += "’";
    else if (free && c === " " && masked[i + 1] !== MASK && /^[;:!?»]/.test(rest)) out += NBSP;
    else if (free && c === " " && prev === "«") out += NBSP;
    else if (free && c === " " && /(?<![\d.,])\d{1,3}(?:[ \u00a0\u202f]\d{3})*$/.test(text.slice(0, i)) && /^\d{3}(?!\d)/.test(rest)) out += NBSP;
    else if (free && c === " " && /\d$/.test(prev) && /^(?:[%€]|[kM]€|[kMG]o\b)/.test(rest)) out += NBSP;
    else out += c;
  }
  return out;
}
