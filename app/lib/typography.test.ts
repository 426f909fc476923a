import { describe, expect, it } from "vitest";
import {
  frenchTypography,
  sentenceCaseViolations,
  SPEC_TITLE_EXCEPTIONS,
  SPEC_VERBATIM_EXCEPTIONS,
  typographyViolations,
  type TypographyRule,
} from "./typography";
import { formatEuros } from "./format";

const N = "\u00a0";
const NN = "\u202f";

// [text, the rules it breaks (empty: it passes)]
const CASES: Array<[string, TypographyRule[]]> = [
  // apostrophe
  [`Fonds d’investissement`, []],
  [`Fonds d'investissement`, ["apostrophe"]],
  [`Aujourd’hui, l’annuaire s’ouvre`, []],
  [`l'annuaire`, ["apostrophe"]],
  [`'Matching pour le mandat'`, []],
  [`Matching du mandat LDA-03`, []],
  // space before ; : ! ?
  [`Limite atteinte${N}: 3 mandats`, []],
  [`Limite atteinte${NN}: 3 mandats`, []],
  [`Limite atteinte : 3 mandats`, ["space-before-punctuation"]],
  [`Limite atteinte: 3 mandats`, ["missing-space-before-punctuation"]],
  [`Êtes-vous sûr${N}?`, []],
  [`Êtes-vous sûr ?`, ["space-before-punctuation"]],
  [`Bienvenue!`, ["missing-space-before-punctuation"]],
  [`Bienvenue${N}!`, []],
  [`un point${N}; un autre`, []],
  [`un point; un autre`, ["missing-space-before-punctuation"]],
  [`Réponse (sous 48${N}h)${N}?`, []],
  [`Réponse (sous 48${N}h)?`, ["missing-space-before-punctuation"]],
  // exceptions: times, URLs, e-mail addresses, code
  [`Rendez-vous à 14:30 ou 9h-18h`, []],
  [`Voir https://exemple.fr/a?b=1:2 et www.exemple.fr?x`, []],
  [`Écrire à contact@exemple.fr`, []],
  [`otpauth://totp/R%C3%A9seau:moi?secret=ABC`, []],
  [`la commande \`npm run seed\``, []],
  // guillemets
  [`«${N}Profil vérifié${N}»`, []],
  [`«${NN}Profil vérifié${NN}»`, []],
  [`« Profil vérifié »`, ["guillemets", "guillemets"]],
  [`«Profil vérifié»`, ["guillemets", "guillemets"]],
  // numbers
  [`1${NN}250${N}€`, []],
  [`1${N}250${N}€ par an`, []],
  [`1 250${N}€`, ["number-spacing"]],
  [`250 €/an`, ["number-spacing"]],
  [`250€`, ["number-spacing"]],
  [`30${N}%`, []],
  [`30 %`, ["number-spacing"]],
  [`85%`, ["number-spacing"]],
  [`5${N}Mo`, []],
  [`5 Mo`, ["number-spacing"]],
  [`en 2025, 250 membres`, []],
  [`2 sur 5 étapes`, []],
  // a line starting with punctuation
  [`Statut\n: validé`, ["line-start"]],
  [`Statut${N}: validé`, []],
  [`Montant\n€`, []],
  [`Montant\n€ par an`, ["line-start"]],
  // English words
  [`Statistiques`, []],
  [`Stats`, ["english-word"]],
  [`Deals en attente`, ["english-word"]],
  [`Transactions certifiées en attente`, []],
  [`Tableau de bord`, []],
  [`Dashboard`, ["english-word"]],
  [`Votre adresse e-mail`, []],
  [`Votre email`, ["english-word"]],
  [`Matching panel`, ["english-word"]],
];

describe("typographyViolations", () => {
  it.each(CASES)("%j breaks %j", (text, rules) => {
    expect(typographyViolations(text).map((v) => v.rule).sort()).toEqual([...rules].sort());
  });

  it("names the offending snippet", () => {
    const [violation] = typographyViolations("Un très long texte avant la faute : et après");
    expect(violation?.snippet).toContain("faute : et");
  });

  it("the amounts of the one euro formatter pass", () => {
    for (const amount of [0, 250, 1250, 2500, 1_234_567]) expect(typographyViolations(formatEuros(amount))).toEqual([]);
  });
});

// The specification's verbatim texts that break a rule: kept as it writes them, skipped by the rules.
const SPEC_TEXTS = [
  "Oops! Page not found",
  "Ce professionnel n'existe pas ou n'est plus disponible.",
  "Secteurs d'expertise",
  "Profil non trouvé. Veuillez compléter votre onboarding d'abord.",
  "Compte freemium : 2/3 mandats utilisés ce semestre",
  "Supprimer le mandat: Êtes-vous sûr de vouloir supprimer ce mandat ? Cette action est irréversible.",
  "Vous devez accepter la charte d'engagement pour continuer",
  'L\'adresse email "parrain@exemple" n\'est pas valide',
  "L'adresse du client est obligatoire",
  "Erreur lors de l'envoi du message",
  "Message envoyé avec succès !",
  "Impossible de charger l'annuaire",
  "Inscription réussie ! Vérifiez votre email pour confirmer votre compte.",
  "Cette adresse email est déjà utilisée",
  "Paiement réussi !",
  "Erreur d'upload",
  "Impossible d'uploader l'image. Veuillez réessayer.",
  "Impossible de charger l'annuaire interne",
  "Recommandation confirmée avec succès !",
  "Limite atteinte : Les membres freemium peuvent créer maximum 3 mandats par semestre",
  "Erreur lors de l'enregistrement : la base ne répond pas",
  "Erreur lors de l'envoi de la demande",
  "Demande de mise en relation envoyée !",
  "Mise en relation confirmée ! Les coordonnées ont été échangées par email.",
  "Demande acceptée ! En attente de confirmation de l'autre partie.",
  "Demande acceptée ! (Erreur lors de l'envoi des emails de confirmation)",
  "Erreur lors de l'envoi du message. Veuillez réessayer.",
  "Votre message a été envoyé avec succès !",
  "Deals Certifiés",
  "Deal validé avec succès",
  "Erreur lors du chargement des deals",
  "Matching pour le mandat",
  "Matching",
  "Matching du mandat LDA-03",
  "Exporter les emails",
  "Emails copiés dans le presse-papier",
  "Email",
  "Email *",
];

describe("the specification's verbatim texts", () => {
  it.each(SPEC_TEXTS)("%j passes as an exception and breaks a rule without it", (text) => {
    expect(typographyViolations(text)).toEqual([]);
    expect(typographyViolations(text, []).length).toBeGreaterThan(0);
  });

  it("an exception covers its own text only", () => {
    expect(typographyViolations("Paiement réussi ! Merci !").map((v) => v.rule)).toEqual(["space-before-punctuation"]);
    expect(typographyViolations("Matching des mandats").map((v) => v.rule)).toEqual(["english-word"]);
  });

  it("every exception is used by a case above", () => {
    for (const exception of SPEC_VERBATIM_EXCEPTIONS) {
      const used = SPEC_TEXTS.some((t) => (typeof exception === "string" ? t.includes(exception) : new RegExp(exception.source, exception.flags).test(t)));
      expect(used, String(exception)).toBe(true);
    }
  });
});

// [title, passes]
const TITLES: Array<[string, boolean]> = [
  ["Gestion des mandats", true],
  ["Gestion des Mandats", true],
  ["Gestion des Demandes", false],
  ["Mon profil professionnel", true],
  ["Mes Demandes reçues", false],
  ["Passez Premium", true],
  ["Transactions M&A certifiées", true],
  ["Statistiques — Mandats", true],
  ["Thomas Garnier", true],
  ["Fonds d’investissement en France", true],
  ["Espace Membre", false],
  ["Politique de confidentialité", true],
  ["Cession de fonds de commerce | Réseau Transmission", true],
  ["NHQ-97 · Mandat cédant", true],
];

describe("sentenceCaseViolations", () => {
  it.each(TITLES)("%j passes: %j", (title, passes) => {
    expect(sentenceCaseViolations(title).length === 0).toBe(passes);
  });

  it.each(SPEC_TITLE_EXCEPTIONS)("the specification's title %j passes as an exception and breaks the rule without it", (title) => {
    expect(sentenceCaseViolations(title)).toEqual([]);
    expect(sentenceCaseViolations(title, title).length).toBeGreaterThan(0);
  });
});

// [text, repaired]
const FIXES: Array<[string, string]> = [
  ["Fonds d'investissement", "Fonds d’investissement"],
  ["Attention : l'offre ; vraiment ? oui !", `Attention${N}: l’offre${N}; vraiment${N}? oui${N}!`],
  ["« Profil vérifié »", `«${N}Profil vérifié${N}»`],
  ["1 250 € et 30 %", `1${N}250${N}€ et 30${N}%`],
  ["en 2025 250 membres", "en 2025 250 membres"],
  ["Voir https://exemple.fr/?a=b et 14:30", "Voir https://exemple.fr/?a=b et 14:30"],
  ["Paiement réussi !", "Paiement réussi !"],
];

describe("frenchTypography", () => {
  it.each(FIXES)("%j becomes %j", (text, fixed) => {
    expect(frenchTypography(text)).toBe(fixed);
    expect(typographyViolations(frenchTypography(text))).toEqual([]);
  });
});
