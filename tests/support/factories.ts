// Test data factories (DESIGN §4.10), shared by the tests and the demo seed (scripts/seed-lib.ts),
// so this module must not import vitest. Builders return insert values without touching the
// database; `create*` helpers insert through a `Db`.
//
// Every random choice goes through `faker` (French locale): after `seedFactories(n)` the same
// calls produce the same values, ids included (ids are generated here, not by the database,
// so that children can reference parents without a round trip).
// The French instance itself (the package index imports it from there, with its 70 other locales).
import { faker as fakerFR } from "@faker-js/faker/locale/fr";
import { and, eq } from "drizzle-orm";
import { hashPassword } from "~/auth/password.server";
import type { Db } from "~/db/client.server";
import { DEPARTMENT_CODES, SECTOR_CODES, type ProfessionCode } from "~/db/reference";
import {
  account,
  certifiedDeals,
  emailPreferences,
  mandates,
  messageReads,
  messages,
  profiles,
  quotaEvents,
  recommendations,
  user,
  userRoles,
  verificationChecks,
  verificationEvidence,
} from "~/db/schema";
import { withLuhnKey } from "~/features/trust/siren";
import { EMAIL_KINDS, type EmailFrequency, type EmailKind } from "~/features/notifications/event-rules";
import { checkRegistration, VERIFICATION_STEPS } from "~/features/trust/verification-rules";
import { profileSearchText } from "~/db/search-text";
import { slugify as slugifyText } from "~/lib/slug";
import { invalidate } from "~/lib/cache.server";

export const faker = fakerFR;

/** Makes every following builder call deterministic. */
export function seedFactories(seed: number) {
  faker.seed(seed);
}

export type NewUser = typeof user.$inferInsert;
export type NewAccount = typeof account.$inferInsert;
export type NewProfile = typeof profiles.$inferInsert;
export type NewDeal = typeof certifiedDeals.$inferInsert;
export type NewRecommendation = typeof recommendations.$inferInsert;
export type NewMessage = typeof messages.$inferInsert;
export type NewMandate = typeof mandates.$inferInsert;

export type User = typeof user.$inferSelect;
export type Profile = typeof profiles.$inferSelect;
export type Deal = typeof certifiedDeals.$inferSelect;
export type Recommendation = typeof recommendations.$inferSelect;
export type Message = typeof messages.$inferSelect;
export type Mandate = typeof mandates.$inferSelect;

type WithId<T> = T & { id: string };
type Membership = NonNullable<NewProfile["membershipType"]>;
type MaUsage = NonNullable<NewMandate["maUsage"]>;
type ProjectTimeline = NonNullable<NewMandate["projectTimeline"]>;
type TargetBuyerType = NonNullable<NewMandate["targetBuyerTypes"]>[number];

export const DEFAULT_TEST_PASSWORD = "motdepasse-test-2026";

// ---------------------------------------------------------------------------------------------
// Small deterministic helpers

const DAY_MS = 86_400_000;

/** YYYY-MM-DD (UTC) of a date. */
export function isoDate(d: Date): string {
  return d.toISOString().slice(0, 10);
}

function addDays(d: Date, days: number): Date {
  return new Date(d.getTime() + days * DAY_MS);
}

function daysAgo(days: number): Date {
  return new Date(Date.now() - days * DAY_MS);
}

function int(min: number, max: number): number {
  return faker.number.int({ min, max });
}

function chance(probability: number): boolean {
  return faker.number.float({ min: 0, max: 1 }) < probability;
}

function pick<T>(items: readonly T[]): T {
  return items[faker.number.int({ min: 0, max: items.length - 1 })];
}

type Weighted<T> = { values: readonly T[]; cumulative: readonly number[]; total: number };

function weighted<T>(entries: readonly (readonly [T, number])[]): Weighted<T> {
  const cumulative: number[] = [];
  let total = 0;
  for (const [, w] of entries) {
    total += w;
    cumulative.push(total);
  }
  return { values: entries.map(([v]) => v), cumulative, total };
}

function pickWeighted<T>(w: Weighted<T>): T {
  const r = faker.number.int({ min: 0, max: w.total - 1 });
  let lo = 0;
  let hi = w.cumulative.length - 1;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (w.cumulative[mid] > r) hi = mid;
    else lo = mid + 1;
  }
  return w.values[lo];
}

/** `count` distinct values, drawn by weight (bounded retries, then fills in list order). */
function pickWeightedDistinct<T>(w: Weighted<T>, count: number): T[] {
  const out: T[] = [];
  const n = Math.min(count, w.values.length);
  for (let tries = 0; out.length < n && tries < n * 8; tries++) {
    const v = pickWeighted(w);
    if (!out.includes(v)) out.push(v);
  }
  for (const v of w.values) {
    if (out.length >= n) break;
    if (!out.includes(v)) out.push(v);
  }
  return out;
}

function pickDistinct<T>(items: readonly T[], min: number, max: number): T[] {
  return faker.helpers.arrayElements(items, { min, max });
}

/** Lower-case ASCII slug for e-mail local parts: "Hélène Lefèvre" → "helene-lefevre". */
export const slugify = (value: string) => slugifyText(value).replace(/[^a-z0-9-]/g, "");

function capitalize(value: string): string {
  return value.charAt(0).toUpperCase() + value.slice(1);
}

function roundTo(value: number, step: number): number {
  return Math.max(step, Math.round(value / step) * step);
}

// ---------------------------------------------------------------------------------------------
// French reference material for realistic demo data

const FEMALE_FIRST_NAMES = [
  "Marie", "Nathalie", "Isabelle", "Sylvie", "Catherine", "Valérie", "Sandrine", "Christine",
  "Sophie", "Céline", "Stéphanie", "Anne", "Véronique", "Caroline", "Émilie", "Julie", "Aurélie",
  "Camille", "Claire", "Hélène", "Laurence", "Agnès", "Florence", "Virginie", "Delphine", "Élodie",
  "Charlotte", "Pauline", "Mathilde", "Léa", "Juliette", "Béatrice", "Cécile", "Marion", "Chloé",
  "Laure", "Anne-Sophie", "Marie-Christine", "Géraldine", "Inès", "Manon", "Sarah", "Audrey",
] as const;

const MALE_FIRST_NAMES = [
  "Jean", "Pierre", "Philippe", "Michel", "Alain", "Nicolas", "Christophe", "Stéphane", "Laurent",
  "Frédéric", "Olivier", "Éric", "Sébastien", "Thierry", "David", "Julien", "Guillaume", "Vincent",
  "François", "Jérôme", "Patrick", "Antoine", "Thomas", "Arnaud", "Benoît", "Matthieu", "Alexandre",
  "Maxime", "Romain", "Damien", "Cédric", "Xavier", "Bertrand", "Hugues", "Grégoire", "Emmanuel",
  "Yann", "Lucas", "Hugo", "Bruno", "Jean-Marc", "Jean-Philippe", "Loïc",
] as const;

const LAST_NAMES = [
  "Martin", "Bernard", "Thomas", "Petit", "Robert", "Richard", "Durand", "Dubois", "Moreau",
  "Laurent", "Simon", "Michel", "Lefèvre", "Leroy", "Roux", "David", "Bertrand", "Morel", "Fournier",
  "Girard", "Bonnet", "Dupont", "Lambert", "Fontaine", "Rousseau", "Vincent", "Muller", "Faure",
  "André", "Mercier", "Blanc", "Guérin", "Boyer", "Garnier", "Chevalier", "François", "Legrand",
  "Gauthier", "Garcia", "Perrin", "Robin", "Clément", "Morin", "Nicolas", "Henry", "Roussel",
  "Mathieu", "Gautier", "Masson", "Marchand", "Duval", "Denis", "Dumont", "Lemaire", "Noël", "Meyer",
  "Dufour", "Meunier", "Brun", "Blanchard", "Giraud", "Joly", "Rivière", "Lucas", "Brunet",
  "Gaillard", "Barbier", "Arnaud", "Martinez", "Gérard", "Roche", "Renard", "Schmitt", "Roy",
  "Leroux", "Colin", "Vidal", "Caron", "Picard", "Roger", "Fabre", "Aubert", "Lemoine", "Renaud",
  "Dumas", "Lacroix", "Olivier", "Bourgeois", "Benoît", "Rey", "Leclerc", "Payet", "Rolland",
  "Leclercq", "Lecomte", "Lopez", "Dupuy", "Guillot", "Hubert", "Berger", "Carpentier", "Sanchez",
  "Dupuis", "Moulin", "Deschamps", "Huet", "Vasseur", "Perez", "Boucher", "Fleury", "Royer", "Klein",
  "Jacquet", "Adam", "Poirier", "Marty", "Aubry", "Guyot", "Carré", "Charles", "Renault",
  "Charpentier", "Ménard", "Maillard", "Baron", "Bertin", "Bailly", "Hervé", "Schneider",
  "Fernandez", "Le Gall", "Collet", "Léger", "Bouvier", "Prévost", "Millet", "Perrot", "Cousin",
  "Germain", "Breton", "Besson", "Langlois", "Rémy", "Le Goff", "Pelletier", "Lévêque", "Perrier",
  "Leblanc", "Barré", "Lebrun", "Marchal", "Weber", "Mallet", "Hamon", "Boulanger", "Jacob",
  "Monnier", "Michaud", "Guichard", "Gillet", "Étienne", "Grondin", "Poulain", "Tessier", "Chauvin",
  "Da Silva", "Bouchet", "Lemaître", "Bénard", "Maréchal", "Humbert", "Reynaud", "Hoarau", "Perret",
  "Barthélemy", "Cordier", "Pichon", "Lejeune", "Gilbert", "Lamy", "Delaunay", "Pasquier",
  "Carlier", "Laporte", "de Villiers", "Castelnau", "Le Bihan", "Kerjean", "Ollivier", "Courtois",
] as const;

// Chief town first, then a few other business towns for the larger departments.
const CITIES: Readonly<Record<string, readonly string[]>> = {
  "01": ["Bourg-en-Bresse", "Oyonnax"], "02": ["Laon", "Saint-Quentin"], "03": ["Moulins", "Vichy"],
  "04": ["Digne-les-Bains", "Manosque"], "05": ["Gap", "Briançon"], "06": ["Nice", "Cannes", "Antibes", "Sophia Antipolis"],
  "07": ["Privas", "Annonay"], "08": ["Charleville-Mézières"], "09": ["Foix", "Pamiers"], "10": ["Troyes"],
  "11": ["Carcassonne", "Narbonne"], "12": ["Rodez", "Millau"], "13": ["Marseille", "Aix-en-Provence", "Aubagne", "Arles"],
  "14": ["Caen", "Lisieux", "Bayeux"], "15": ["Aurillac"], "16": ["Angoulême", "Cognac"], "17": ["La Rochelle", "Saintes", "Rochefort"],
  "18": ["Bourges", "Vierzon"], "19": ["Tulle", "Brive-la-Gaillarde"], "2A": ["Ajaccio", "Porto-Vecchio"], "2B": ["Bastia", "Calvi"],
  "21": ["Dijon", "Beaune"], "22": ["Saint-Brieuc", "Lannion"], "23": ["Guéret"], "24": ["Périgueux", "Bergerac"],
  "25": ["Besançon", "Montbéliard"], "26": ["Valence", "Montélimar"], "27": ["Évreux", "Vernon"], "28": ["Chartres", "Dreux"],
  "29": ["Quimper", "Brest", "Morlaix"], "30": ["Nîmes", "Alès"], "31": ["Toulouse", "Blagnac", "Labège"], "32": ["Auch"],
  "33": ["Bordeaux", "Mérignac", "Arcachon", "Libourne"], "34": ["Montpellier", "Béziers", "Sète"], "35": ["Rennes", "Saint-Malo", "Vitré"],
  "36": ["Châteauroux"], "37": ["Tours", "Amboise"], "38": ["Grenoble", "Vienne", "Voiron"], "39": ["Lons-le-Saunier", "Dole"],
  "40": ["Mont-de-Marsan", "Dax"], "41": ["Blois", "Vendôme"], "42": ["Saint-Étienne", "Roanne"], "43": ["Le Puy-en-Velay"],
  "44": ["Nantes", "Saint-Nazaire", "La Baule"], "45": ["Orléans", "Montargis"], "46": ["Cahors", "Figeac"], "47": ["Agen", "Villeneuve-sur-Lot"],
  "48": ["Mende"], "49": ["Angers", "Cholet", "Saumur"], "50": ["Saint-Lô", "Cherbourg-en-Cotentin"], "51": ["Châlons-en-Champagne", "Reims", "Épernay"],
  "52": ["Chaumont"], "53": ["Laval"], "54": ["Nancy", "Lunéville"], "55": ["Bar-le-Duc", "Verdun"], "56": ["Vannes", "Lorient"],
  "57": ["Metz", "Thionville"], "58": ["Nevers"], "59": ["Lille", "Roubaix", "Tourcoing", "Dunkerque", "Valenciennes"],
  "60": ["Beauvais", "Compiègne"], "61": ["Alençon"], "62": ["Arras", "Boulogne-sur-Mer", "Calais"], "63": ["Clermont-Ferrand", "Riom"],
  "64": ["Pau", "Bayonne", "Biarritz"], "65": ["Tarbes"], "66": ["Perpignan"], "67": ["Strasbourg", "Haguenau", "Sélestat"],
  "68": ["Colmar", "Mulhouse"], "69": ["Lyon", "Villeurbanne", "Villefranche-sur-Saône"], "70": ["Vesoul"], "71": ["Mâcon", "Chalon-sur-Saône"],
  "72": ["Le Mans"], "73": ["Chambéry", "Aix-les-Bains"], "74": ["Annecy", "Annemasse", "Thonon-les-Bains"],
  "75": ["Paris"], "76": ["Rouen", "Le Havre", "Dieppe"], "77": ["Melun", "Meaux", "Fontainebleau"], "78": ["Versailles", "Saint-Germain-en-Laye"],
  "79": ["Niort"], "80": ["Amiens", "Abbeville"], "81": ["Albi", "Castres"], "82": ["Montauban"], "83": ["Toulon", "Fréjus", "Hyères"],
  "84": ["Avignon", "Carpentras"], "85": ["La Roche-sur-Yon", "Les Sables-d’Olonne"], "86": ["Poitiers", "Châtellerault"],
  "87": ["Limoges"], "88": ["Épinal"], "89": ["Auxerre", "Sens"], "90": ["Belfort"], "91": ["Évry-Courcouronnes", "Massy"],
  "92": ["Nanterre", "Boulogne-Billancourt", "Neuilly-sur-Seine", "Levallois-Perret", "Courbevoie"], "93": ["Bobigny", "Saint-Denis", "Montreuil"],
  "94": ["Créteil", "Vincennes", "Saint-Maur-des-Fossés"], "95": ["Cergy", "Argenteuil"], "971": ["Basse-Terre", "Pointe-à-Pitre"],
  "972": ["Fort-de-France"], "973": ["Cayenne"], "974": ["Saint-Denis", "Saint-Pierre"], "976": ["Mamoudzou"],
};

// Business activity concentrates in a few departments and sectors; weighting the draws that way
// makes buyer and seller mandates of the demo overlap, as they would in real life.
const BUSY_DEPARTMENTS: Readonly<Record<string, number>> = {
  "75": 40, "92": 18, "69": 18, "13": 14, "33": 12, "31": 12, "59": 12, "44": 10, "06": 9, "67": 8,
  "34": 8, "35": 8, "78": 6, "94": 5, "93": 4, "38": 5, "76": 4, "57": 3, "74": 3, "21": 3,
};
const DEPARTMENT_WEIGHTS = weighted(DEPARTMENT_CODES.map((code) => [code, BUSY_DEPARTMENTS[code] ?? 1] as const));
const MANDATE_DEPARTMENT_WEIGHTS = weighted(Object.entries(BUSY_DEPARTMENTS));

const SECTOR_POPULARITY: Readonly<Record<string, number>> = {
  C: 14, G: 14, F: 12, I: 11, M: 10, Q: 8, J: 8, H: 6, N: 6, K: 4, L: 4, S: 4, A: 3, P: 2, R: 2,
  E: 1, D: 1, B: 1, O: 1, T: 1, U: 1,
};
const SECTOR_WEIGHTS = weighted(SECTOR_CODES.map((code) => [code, SECTOR_POPULARITY[code] ?? 1] as const));
// Mandates: only the sectors where transfers actually happen.
const MANDATE_SECTOR_WEIGHTS = weighted(
  (["C", "G", "F", "I", "M", "Q", "J", "H", "N"] as const).map((code) => [code, SECTOR_POPULARITY[code]] as const),
);

const PROFESSION_WEIGHTS = weighted<ProfessionCode>([
  ["expert_comptable", 20],
  ["conseil_ma", 16],
  ["avocat_affaires", 14],
  ["notaire", 10],
  ["conseil_cession_commerce", 10],
  ["avocat_fiscaliste", 6],
  ["commissaire_aux_comptes", 5],
  ["conseiller_patrimoine", 6],
  ["conseil_levee_fonds", 4],
  ["conseil_immobilier_commercial", 4],
  ["expert_evaluation", 5],
]);

const MEMBERSHIP_WEIGHTS = weighted<Membership>([
  ["founding_member", 10],
  ["premium", 25],
  ["freemium", 65],
]);

const COMPANY_PATTERNS: Readonly<Record<ProfessionCode, readonly string[]>> = {
  avocat_affaires: ["{L} Avocats", "Cabinet {L} & Associés", "{L} {L2} Avocats", "{L} Legal", "AARPI {L} {L2}"],
  avocat_fiscaliste: ["{L} Avocats Fiscalistes", "Cabinet {L} Fiscalité", "{L} & Associés Avocats", "{C} Tax Avocats"],
  notaire: ["Office notarial {L}", "SCP {L} & {L2}, notaires", "Étude {L}", "{L} Notaires Associés"],
  expert_comptable: ["Cabinet {L} Expertise", "{L} Audit & Conseil", "{C} Expertise Comptable", "Fiduciaire {L}", "{L} {L2} Experts-Comptables"],
  commissaire_aux_comptes: ["{L} Audit", "Cabinet {L} Commissariat aux comptes", "{L} & {L2} Audit", "{C} Révision"],
  conseiller_patrimoine: ["{L} Patrimoine", "{C} Gestion Privée", "Cabinet {L} Patrimoine & Transmission", "{L} Family Office"],
  conseil_ma: ["{L} Finance", "{C} Transmission Partners", "{L} Corporate Finance", "{L} & {L2} Fusions-Acquisitions", "Cap Transmission {C}"],
  conseil_levee_fonds: ["{L} Capital Conseil", "{C} Invest Partners", "{L} Levée de Fonds", "Cabinet {L} Financement"],
  conseil_cession_commerce: ["{C} Commerces", "Cabinet {L} Transactions", "{L} Fonds de Commerce", "Agence {L} Cessions"],
  conseil_immobilier_commercial: ["{L} Immobilier d’Entreprise", "{C} Immo Pro", "{L} Locaux Commerciaux", "Cabinet {L} Immobilier"],
  expert_evaluation: ["{L} Évaluation", "Cabinet {L} Valorisation", "{C} Évaluation Conseil", "{L} & {L2} Expertise"],
};

const EXPERTISE: Readonly<Record<ProfessionCode, string>> = {
  avocat_affaires: "droit des affaires et opérations de haut de bilan",
  avocat_fiscaliste: "fiscalité des cessions et restructurations (pactes Dutreil, apports-cessions)",
  notaire: "droit de l’entreprise, transmission familiale et cessions de fonds de commerce",
  expert_comptable: "accompagnement des dirigeants de TPE et PME, évaluation et transmission",
  commissaire_aux_comptes: "audit légal, audits d’acquisition et due diligences financières",
  conseiller_patrimoine: "stratégie patrimoniale du dirigeant avant et après cession",
  conseil_ma: "fusions-acquisitions small et mid cap, côté cédant comme côté acquéreur",
  conseil_levee_fonds: "levées de fonds, LBO et recherche d’investisseurs",
  conseil_cession_commerce: "cession et reprise de fonds de commerce",
  conseil_immobilier_commercial: "immobilier commercial, baux et murs commerciaux",
  expert_evaluation: "évaluation d’entreprises, de titres et de fonds de commerce",
};

// A business of each sector, for recent operations, deals and mandates.
const SECTOR_BUSINESSES: Readonly<Record<string, readonly string[]>> = {
  A: ["une exploitation viticole", "un domaine agricole céréalier", "une entreprise paysagiste"],
  B: ["une carrière de granulats", "une société d’extraction de sable"],
  C: ["une PME de mécanique de précision", "un atelier de chaudronnerie", "une menuiserie industrielle", "une biscuiterie artisanale", "un fabricant de cosmétiques"],
  D: ["un producteur d’énergie photovoltaïque", "une centrale hydroélectrique"],
  E: ["une entreprise de collecte de déchets", "une société d’assainissement"],
  F: ["une entreprise de maçonnerie", "une société de plomberie-chauffage", "une entreprise d’électricité générale", "un constructeur de maisons individuelles"],
  G: ["un réseau de magasins d’optique", "un négoce de matériaux", "une boulangerie-pâtisserie", "une pharmacie", "un commerce de prêt-à-porter", "une concession automobile"],
  H: ["une société de transport routier", "une entreprise de déménagement", "une plateforme logistique"],
  I: ["un hôtel-restaurant", "une brasserie", "un restaurant traditionnel", "un camping 4 étoiles"],
  J: ["un éditeur de logiciels", "une agence web", "une ESN de 40 consultants"],
  K: ["un cabinet de courtage en assurances", "une société de gestion de patrimoine"],
  L: ["une agence immobilière", "un administrateur de biens"],
  M: ["un bureau d’études techniques", "un cabinet d’architecture", "un cabinet d’expertise comptable"],
  N: ["une entreprise de nettoyage industriel", "une agence d’intérim", "une société de sécurité"],
  O: ["une société d’économie mixte"],
  P: ["un organisme de formation", "une auto-école", "une école privée"],
  Q: ["un laboratoire d’analyses médicales", "un EHPAD", "un cabinet de kinésithérapie"],
  R: ["une salle de sport", "un cinéma indépendant", "un parc de loisirs"],
  S: ["un salon de coiffure", "un pressing", "un institut de beauté"],
  T: ["une société de services à la personne"],
  U: ["une représentation commerciale étrangère"],
};

const OPERATION_KINDS = ["Cession", "Acquisition", "Reprise", "Transmission familiale", "LBO", "Rapprochement", "Évaluation"] as const;
const BUYER_KINDS = ["d’un groupe familial", "d’un fonds d’investissement", "d’un repreneur individuel", "d’un concurrent régional", "d’un groupe coté", "de ses salariés (RES)"] as const;

function businessOf(sector: string): string {
  return pick(SECTOR_BUSINESSES[sector] ?? SECTOR_BUSINESSES.C);
}

/** "de" with the elision French requires: "d'une PME", "d'Albi", "de Lyon". */
function de(word: string): string {
  return /^[aeiouyàâéèêëîïôûüh]/i.test(word) ? `d’${word}` : `de ${word}`;
}

function ofBusiness(sector: string): string {
  return de(businessOf(sector));
}

// ---------------------------------------------------------------------------------------------
// Builders (insert values, nothing inserted)

export type Person = { firstName: string; lastName: string };

export function buildPerson(): Person {
  const firstName = chance(0.5) ? pick(FEMALE_FIRST_NAMES) : pick(MALE_FIRST_NAMES);
  return { firstName, lastName: pick(LAST_NAMES) };
}

export function buildEmail(person: Person, domain = "exemple.fr"): string {
  const suffix = faker.string.alphanumeric({ length: 6, casing: "lower" });
  return `${slugify(person.firstName)}.${slugify(person.lastName)}.${suffix}@${domain}`;
}

export function buildUser(overrides: Partial<NewUser> = {}): WithId<NewUser> {
  const person = buildPerson();
  const createdAt = overrides.createdAt ?? daysAgo(int(1, 720));
  return {
    id: faker.string.uuid(),
    name: `${person.firstName} ${person.lastName}`,
    email: buildEmail(person),
    emailVerified: true,
    createdAt,
    updatedAt: createdAt,
    ...overrides,
  };
}

/** better-auth's e-mail/password account: provider 'credential', account id = user id. */
export function buildCredentialAccount(userId: string, passwordHash: string, overrides: Partial<NewAccount> = {}): WithId<NewAccount> {
  const createdAt = overrides.createdAt ?? new Date();
  return {
    id: faker.string.uuid(),
    accountId: userId,
    providerId: "credential",
    userId,
    password: passwordHash,
    createdAt,
    updatedAt: createdAt,
    ...overrides,
  };
}

function companyName(profession: ProfessionCode, lastName: string, city: string): string {
  return pick(COMPANY_PATTERNS[profession])
    .replace("{L2}", pick(LAST_NAMES))
    .replace("{L}", lastName)
    .replace("{C}", city);
}

function postcode(department: string): string {
  if (department.length === 3) return `${department}${String(int(0, 9) * 10).padStart(2, "0")}`;
  if (department === "2A") return `200${int(0, 9)}0`;
  if (department === "2B") return `20${int(2, 6)}${int(0, 9)}0`;
  return `${department}${String(int(0, 99) * 10).padStart(3, "0")}`;
}

export function buildAddress(department: string, city?: string): string {
  const town = city ?? pick(CITIES[department] ?? ["Paris"]);
  return `${faker.location.streetAddress()}, ${postcode(department)} ${town}`;
}

function recentOperations(sectors: readonly string[], city: string): string {
  const count = int(2, 3);
  const lines: string[] = [];
  for (let i = 0; i < count; i++) {
    const sector = pick(sectors.length > 0 ? sectors : ["C"]);
    const year = new Date().getFullYear() - int(0, 3);
    const where = chance(0.5) ? `près ${de(city)}` : `au profit ${pick(BUYER_KINDS)}`;
    lines.push(`${pick(OPERATION_KINDS)} ${ofBusiness(sector)} ${where} (${year})`);
  }
  return lines.join("\u00a0; ") + ".";
}

function presentation(p: { firstName: string; company: string; profession: ProfessionCode; city: string; years: number }): string {
  return [
    `Au sein ${de(p.company)} à ${p.city}, j’interviens depuis ${p.years} ans en ${EXPERTISE[p.profession]}.`,
    pick([
      "J’accompagne les dirigeants à chaque étape\u00a0: préparation, valorisation, recherche de contreparties, négociation et closing.",
      "Mon approche\u00a0: une relation de confiance avec le dirigeant, une préparation rigoureuse du dossier et un réseau d’acquéreurs qualifiés.",
      "Je travaille en binôme avec les autres professionnels du dossier (avocats, notaires, experts-comptables, banquiers) pour sécuriser l’opération.",
    ]),
    pick([
      "Membre actif du réseau, je partage volontiers mes mandats avec les confrères de ma région.",
      "Je recherche des partenaires pour co-intervenir sur des dossiers de transmission de PME.",
      "Disponible pour échanger sur vos dossiers de cession et d’acquisition.",
    ]),
  ].join(" ");
}

/**
 * A validated member's profile by default (onboarding done, random membership, 1–5 sectors, a
 * department and a city of that department). `search_text` is always derived from the final
 * values, overrides included.
 */
export function buildProfile(overrides: Partial<NewProfile> = {}): WithId<NewProfile> {
  const person = buildPerson();
  const firstName = overrides.firstName ?? person.firstName;
  const lastName = overrides.lastName ?? person.lastName;
  const profession = overrides.profession ?? pickWeighted(PROFESSION_WEIGHTS);
  const department = overrides.locationDepartment ?? pickWeighted(DEPARTMENT_WEIGHTS);
  const city = overrides.locationCity ?? pick(CITIES[department] ?? ["Paris"]);
  const company = overrides.company ?? companyName(profession, lastName, city);
  const sectors = overrides.specializationSectors ?? pickWeightedDistinct(SECTOR_WEIGHTS, int(1, 5));
  const membershipType = overrides.membershipType ?? pickWeighted(MEMBERSHIP_WEIGHTS);
  const enriched = membershipType !== "freemium";
  const commerce = profession === "conseil_cession_commerce" || profession === "conseil_immobilier_commercial";
  const college = commerce ? (chance(0.85) ? "transmission_commerces" : "transmission_entreprises") : chance(0.9) ? "transmission_entreprises" : "transmission_commerces";
  const createdAt = overrides.createdAt ?? daysAgo(int(3, 720));
  const years = int(5, 30);
  const slug = `${slugify(firstName)}-${slugify(lastName)}-${faker.string.alphanumeric({ length: 4, casing: "lower" })}`;
  const detailed = presentation({ firstName, company, profession, city, years });
  const internal = `Je recherche actuellement des ${pick(["repreneurs", "cibles", "co-mandataires", "dossiers de cession"])} dans les secteurs ${sectors.join(", ")}. ${pick(["Ouvert aux co-mandats.", "Réponse sous 48 h.", "Échanges en toute confidentialité."])}`;
  const profile: WithId<NewProfile> = {
    id: faker.string.uuid(),
    userId: faker.string.uuid(),
    firstName,
    lastName,
    company,
    profession,
    college,
    onboardingStatus: "validated",
    charterSignedAt: addDays(createdAt, -2),
    linkedinUrl: chance(0.8) ? `https://www.linkedin.com/in/${slug}` : null,
    experienceDescription: `${years} ans d’expérience en ${EXPERTISE[profession]}.`,
    recentOperations: recentOperations(sectors, city),
    locationCity: city,
    locationDepartment: department,
    fullAddress: buildAddress(department, city),
    specializationSectors: sectors,
    detailedPresentation: enriched ? detailed : chance(0.4) ? detailed : null,
    internalPresentation: enriched ? internal : null,
    logoUrl: null,
    photoUrl: null,
    conseilType: null,
    membershipType,
    profileStatus: "validated",
    validatedAt: addDays(createdAt, 1),
    validatedBy: null,
    createdAt,
    updatedAt: createdAt,
    ...overrides,
  };
  profile.searchText = profileSearchText({
    firstName: profile.firstName,
    lastName: profile.lastName,
    company: profile.company,
    profession: profile.profession,
    specializationSectors: profile.specializationSectors ?? [],
  });
  return profile;
}

export function buildDeal(overrides: Partial<NewDeal> & { profileId: string }): WithId<NewDeal> {
  const sector = overrides.sector ?? pickWeighted(SECTOR_WEIGHTS);
  const status = overrides.status ?? (chance(0.75) ? "validated" : chance(0.8) ? "pending" : "rejected");
  const createdAt = overrides.createdAt ?? daysAgo(int(1, 400));
  const target = pick(LAST_NAMES);
  const acquirer = pick(["Groupe", "Holding", "Financière", "Capital", "Industries"]);
  return {
    id: faker.string.uuid(),
    year: new Date().getFullYear() - int(0, 8),
    sector,
    acquirerCedant: `${acquirer} ${pick(LAST_NAMES)} / ${target} ${pick(["SAS", "SARL", "SA", "& Fils", "Distribution"])}`,
    dealDescription: chance(0.7) ? `${pick(OPERATION_KINDS)} ${ofBusiness(sector)} (${int(5, 250)} salariés).` : null,
    status,
    rejectionReason: status === "rejected" ? "Justificatif de l’opération manquant." : null,
    validatedAt: status === "validated" ? addDays(createdAt, int(1, 10)) : null,
    validatedBy: null,
    createdAt,
    updatedAt: createdAt,
    ...overrides,
  };
}

/** A confirmed recommendation by default (pass `confirmedAt: null` for a pending one). */
export function buildRecommendation(overrides: Partial<NewRecommendation> & { profileId: string }): WithId<NewRecommendation> {
  const sponsor = buildPerson();
  const createdAt = overrides.createdAt ?? daysAgo(int(10, 730));
  return {
    id: faker.string.uuid(),
    sponsorName: `${sponsor.firstName} ${sponsor.lastName}`,
    sponsorEmail: buildEmail(sponsor, pick(["cabinet-conseil.fr", "notaires.fr", "avocats-associes.fr", "expertise-comptable.fr", "orange.fr", "gmail.com"])),
    createdAt,
    confirmedAt: addDays(createdAt, int(0, 6)),
    ...overrides,
  };
}

const INTERNAL_SUBJECTS = [
  "Co-intervention sur un dossier de transmission",
  "Votre mandat de cession",
  "Recherche d’un repreneur",
  "Demande d’avis sur une valorisation",
  "Proposition de partenariat",
] as const;
const PUBLIC_SUBJECTS = [
  "Projet de cession de mon entreprise",
  "Demande de rendez-vous",
  "Évaluation de ma société",
  "Reprise d’un fonds de commerce",
  "Question sur la transmission familiale",
] as const;

/** Internal when `senderId` is given, public contact otherwise. */
export function buildMessage(overrides: Partial<NewMessage> & { recipientId: string }): WithId<NewMessage> {
  const messageType = overrides.messageType ?? (overrides.senderId ? "internal" : "public_contact");
  const sender = buildPerson();
  const createdAt = overrides.createdAt ?? daysAgo(int(0, 90));
  const sector = pickWeighted(MANDATE_SECTOR_WEIGHTS);
  const internal = messageType === "internal";
  return {
    id: faker.string.uuid(),
    senderId: null,
    subject: internal ? pick(INTERNAL_SUBJECTS) : pick(PUBLIC_SUBJECTS),
    content: internal
      ? `Bonjour, j’ai vu votre profil dans l’annuaire du réseau. J’accompagne ${businessOf(sector)} et je pense qu’un échange serait utile. Seriez-vous disponible pour un appel cette semaine\u00a0? Bien confraternellement.`
      : `Bonjour, je dirige ${businessOf(sector)} et je réfléchis à une transmission d’ici ${int(1, 3)} ans. Pourriez-vous me rappeler\u00a0? Merci.`,
    isRead: chance(0.5),
    senderName: `${sender.firstName} ${sender.lastName}`,
    senderEmail: buildEmail(sender, pick(["gmail.com", "orange.fr", "free.fr", "outlook.fr", "laposte.net"])),
    messageType,
    createdAt,
    updatedAt: createdAt,
    ...overrides,
  };
}

const MA_USAGES: readonly MaUsage[] = ["primo_buyer", "recurrent_buyer", "structured_ma"];
const TIMELINES: readonly ProjectTimeline[] = ["3_months", "6_months", "9_months", "12_months", "24_months"];
const BUYER_TYPES: readonly TargetBuyerType[] = ["same_industry", "investment_fund", "company", "individual_entrepreneur", "other"];
const TARGET_MINIMA = [150_000, 300_000, 500_000, 800_000, 1_200_000, 2_000_000, 3_000_000] as const;
const VALUATIONS = [250_000, 400_000, 600_000, 900_000, 1_500_000, 2_500_000, 4_000_000, 6_000_000] as const;

function clientCode(): string {
  return `${faker.string.alpha({ length: 3, casing: "upper" })}-${faker.string.numeric(2)}`;
}

function clientName(): string {
  const kind = pick(["SAS", "SARL", "SA", "EURL", "SCI"]);
  return pick([`${pick(LAST_NAMES)} ${kind}`, `${pick(LAST_NAMES)} & ${pick(LAST_NAMES)} ${kind}`, `Établissements ${pick(LAST_NAMES)}`, `Groupe ${pick(LAST_NAMES)}`]);
}

/**
 * An active, exclusive mandate starting within the last 60 days and ending 90 days later (so it
 * has not ended). Buyer or seller at random unless `mandateType` is given; only that side's
 * fields are filled, ranges in whole euros with min ≤ max.
 */
export function buildMandate(overrides: Partial<NewMandate> & { profileId: string }): WithId<NewMandate> {
  const mandateType = overrides.mandateType ?? (chance(0.5) ? "buyer" : "seller");
  const start = daysAgo(int(0, 60));
  const startDate = overrides.startDate ?? isoDate(start);
  const endDate = overrides.endDate ?? isoDate(addDays(new Date(`${startDate}T00:00:00Z`), 90));
  const department = pickWeighted(MANDATE_DEPARTMENT_WEIGHTS);
  const base: WithId<NewMandate> = {
    id: faker.string.uuid(),
    profileId: overrides.profileId,
    mandateType,
    isExclusive: true,
    startDate,
    endDate,
    clientCode: clientCode(),
    clientName: clientName(),
    clientAddress: buildAddress(department),
    status: "active",
    createdAt: new Date(`${startDate}T09:00:00Z`),
  };
  if (mandateType === "buyer") {
    const sectors = pickWeightedDistinct(MANDATE_SECTOR_WEIGHTS, int(1, 4));
    const territories = chance(0.2) ? ["france"] : pickWeightedDistinct(MANDATE_DEPARTMENT_WEIGHTS, int(1, 5));
    const targetMin = pick(TARGET_MINIMA);
    const targetMax = targetMin * pick([2, 3, 4, 5, 8]);
    const contributionMin = roundTo(targetMin * faker.number.float({ min: 0.1, max: 0.3 }), 10_000);
    const contributionMax = contributionMin * int(2, 4);
    Object.assign(base, {
      description: `Repreneur ${pick(["expérimenté", "issu d’un grand groupe", "déjà à la tête d’une PME", "accompagné d’un fonds"])} recherche ${businessOf(sectors[0])} ${territories[0] === "france" ? "sur toute la France" : "dans sa région"}.`,
      searchSectors: sectors,
      searchTerritories: territories,
      targetAmountMin: targetMin,
      targetAmountMax: targetMax,
      contributionMin,
      contributionMax,
      maUsage: pick(MA_USAGES),
    } satisfies Partial<NewMandate>);
  } else {
    const sector = pickWeighted(MANDATE_SECTOR_WEIGHTS);
    const valuation = roundTo(pick(VALUATIONS) * faker.number.float({ min: 0.8, max: 2.5 }), 10_000);
    const requiredMin = roundTo(valuation * faker.number.float({ min: 0.1, max: 0.2 }), 10_000);
    const requiredMax = Math.max(requiredMin, roundTo(valuation * faker.number.float({ min: 0.25, max: 0.4 }), 10_000));
    Object.assign(base, {
      description: `Dirigeant${chance(0.3) ? "e" : ""} souhaitant transmettre ${businessOf(sector)}.`,
      companySector: sector,
      companyTerritory: department,
      companyDescription: `${capitalize(businessOf(sector))}\u00a0: ${int(1, 40)}\u00a0M€ de chiffre d’affaires, ${int(5, 150)} salariés, ${pick(["rentabilité stable", "forte croissance", "clientèle fidèle", "carnet de commandes plein"])}.`,
      valuationAmount: valuation,
      requiredContributionMin: requiredMin,
      requiredContributionMax: requiredMax,
      projectTimeline: pick(TIMELINES),
      targetBuyerTypes: pickDistinct(BUYER_TYPES, 1, 3),
    } satisfies Partial<NewMandate>);
  }
  return { ...base, ...overrides, mandateType };
}

// ---------------------------------------------------------------------------------------------
// Inserting helpers

const hashes = new Map<string, Promise<string>>();

/** argon2 is slow on purpose: tests reuse one hash per distinct password. */
function cachedHash(password: string): Promise<string> {
  let h = hashes.get(password);
  if (!h) {
    h = hashPassword(password);
    hashes.set(password, h);
  }
  return h;
}

export type CreateMemberOptions = {
  email?: string;
  password?: string;
  passwordHash?: string;
  emailVerified?: boolean;
  profile?: Partial<NewProfile>;
  admin?: boolean;
};

export type CreatedMember = { user: User; profile: Profile; email: string; password: string };

/** A user with an e-mail/password account, a validated profile and optionally the admin role. */
export async function createMember(db: Db, options: CreateMemberOptions = {}): Promise<CreatedMember> {
  const password = options.password ?? DEFAULT_TEST_PASSWORD;
  const passwordHash = options.passwordHash ?? (await cachedHash(password));
  const person = buildPerson();
  const firstName = options.profile?.firstName ?? person.firstName;
  const lastName = options.profile?.lastName ?? person.lastName;
  const email = (options.email ?? buildEmail({ firstName, lastName })).trim().toLowerCase();
  const userValues = buildUser({ name: `${firstName} ${lastName}`, email, emailVerified: options.emailVerified ?? true });
  const profileValues = buildProfile({ ...options.profile, firstName, lastName, userId: userValues.id });
  return db.transaction(async (tx) => {
    const [u] = await tx.insert(user).values(userValues).returning();
    await tx.insert(account).values(buildCredentialAccount(u.id, passwordHash));
    const [p] = await tx.insert(profiles).values(profileValues).returning();
    // Factories stand for the services: they invalidate what they write as those do (decision 048).
    invalidate("profiles");
    if (options.admin) await tx.insert(userRoles).values({ userId: u.id, role: "admin" }).onConflictDoNothing();
    return { user: u, profile: p, email, password };
  });
}

export type NewVerificationEvidence = typeof verificationEvidence.$inferInsert;

const REGISTRATION_SAMPLES: Record<string, () => { value: string; year?: string }> = {
  bar: () => ({ value: `Barreau de ${pick(["Paris", "Lyon", "Bordeaux", "Lille", "Nantes", "Marseille"])}`, year: String(int(1990, 2020)) }),
  order: () => ({ value: faker.string.numeric(11) }),
  office: () => ({ value: `Office notarial de ${pick(["Lyon Bellecour", "Bordeaux Chartrons", "Nantes Graslin", "Rennes"])}` }),
  intermediary: () => (chance(0.5) ? { value: faker.string.numeric(8) } : { value: `CPI ${faker.string.numeric(4)} ${int(2010, 2024)} ${faker.string.numeric(3)} ${faker.string.numeric(3)} ${faker.string.numeric(3)}` }),
  other: () => ({ value: pick(["Membre de la Compagnie nationale des commissaires aux comptes", "Certification en évaluation d’entreprise", "Membre d’une compagnie d’experts"]) }),
};

/**
 * Plausible verification evidence (valid SIREN key, the registration of the profession, an
 * insurance certificate ending within the next year). The storage key points to no stored file:
 * tests that open the certificate store one themselves.
 */
export function buildVerificationEvidence(profile: { id: string; profession: string }, overrides: Partial<NewVerificationEvidence> = {}): NewVerificationEvidence {
  const siren = withLuhnKey(faker.string.numeric({ length: 8, allowLeadingZeros: false }));
  const siret = chance(0.5) ? withLuhnKey(`${siren}${faker.string.numeric(4)}`) : null;
  const digits = siret && /^\d{14}$/.test(siret) ? siret : siren;
  const typed = digits.length === 9 ? `${digits.slice(0, 3)} ${digits.slice(3, 6)} ${digits.slice(6)}` : `${digits.slice(0, 3)} ${digits.slice(3, 6)} ${digits.slice(6, 9)} ${digits.slice(9)}`;
  const kindSample = ["avocat_affaires", "avocat_fiscaliste"].includes(profile.profession)
    ? "bar"
    : profile.profession === "expert_comptable"
      ? "order"
      : profile.profession === "notaire"
        ? "office"
        : ["commissaire_aux_comptes", "expert_evaluation"].includes(profile.profession)
          ? "other"
          : "intermediary";
  const sample = REGISTRATION_SAMPLES[kindSample]();
  const checked = checkRegistration(profile.profession, { value: sample.value, year: sample.year }, new Date().getFullYear());
  const registration = checked.ok ? checked.registration : { kind: "other" as const, value: sample.value, year: null };
  return {
    profileId: profile.id,
    sirenTyped: typed,
    sirenDigits: digits,
    registrationKind: registration.kind,
    registrationValue: registration.value,
    registrationYear: registration.year,
    insurer: pick(["MMA", "AXA France", "Allianz", "Hiscox", "CNA Insurance", "Generali"]),
    policyNumber: `RCP-${faker.string.alphanumeric({ length: 8, casing: "upper" })}`,
    insuranceEndsOn: isoDate(addDays(new Date(), int(60, 360))),
    insuranceStorageKey: `documents/verification/${profile.id}/seed.pdf`,
    insuranceFileName: "attestation-rc-pro.pdf",
    insuranceContentType: "application/pdf",
    insuranceSizeBytes: 48_213,
    insuranceSha256: faker.string.hexadecimal({ length: 64, casing: "lower", prefix: "" }),
    ...overrides,
  };
}

/** The five verification steps ticked (by no particular admin). */
export function buildVerificationChecks(profileId: string, at: Date = new Date()) {
  return VERIFICATION_STEPS.map((step) => ({ profileId, step, checkedBy: null, checkedAt: at }));
}

export type CreateApplicantOptions = CreateMemberOptions & {
  /** How many of the two recommendations are already confirmed (default 2). */
  confirmedRecommendations?: 0 | 1 | 2;
  /** Verification evidence given and ticked by the team (default), only given, or none (issue 14). */
  verification?: "checked" | "provided" | "none";
};

/** A candidate waiting for validation: onboarding finished (payment_completed), 2 sponsors. */
export async function createApplicant(
  db: Db,
  options: CreateApplicantOptions = {},
): Promise<CreatedMember & { recommendations: Recommendation[] }> {
  const member = await createMember(db, {
    ...options,
    profile: {
      membershipType: "freemium",
      internalPresentation: null,
      ...options.profile,
      profileStatus: options.profile?.profileStatus ?? "pending_validation",
      onboardingStatus: options.profile?.onboardingStatus ?? "payment_completed",
      validatedAt: null,
      validatedBy: null,
    },
  });
  const confirmed = options.confirmedRecommendations ?? 2;
  const recs = [0, 1].map((i) =>
    buildRecommendation({ profileId: member.profile.id, createdAt: daysAgo(3), confirmedAt: i < confirmed ? daysAgo(1) : null }),
  );
  if (recs[0].sponsorEmail === recs[1].sponsorEmail) recs[1].sponsorEmail = `2.${recs[1].sponsorEmail}`;
  const rows = await db.insert(recommendations).values(recs).returning();
  invalidate("recommendations");
  const verification = options.verification ?? "checked";
  if (verification !== "none") await db.insert(verificationEvidence).values(buildVerificationEvidence(member.profile));
  if (verification === "checked") await db.insert(verificationChecks).values(buildVerificationChecks(member.profile.id));
  return { ...member, recommendations: rows };
}

export async function createMandate(db: Db, profileId: string, overrides: Partial<NewMandate> = {}): Promise<Mandate> {
  const [row] = await db.insert(mandates).values(buildMandate({ ...overrides, profileId })).returning();
  invalidate("mandates");
  // As the app records it (the freemium quota counts creations, not surviving mandates).
  await db.insert(quotaEvents).values({ profileId, kind: "mandate_created", subjectId: row.id, createdAt: row.createdAt });
  return row;
}

export async function createDeal(db: Db, profileId: string, overrides: Partial<NewDeal> = {}): Promise<Deal> {
  const [row] = await db.insert(certifiedDeals).values(buildDeal({ ...overrides, profileId })).returning();
  invalidate("certified_deals");
  return row;
}

export async function createRecommendation(db: Db, profileId: string, overrides: Partial<NewRecommendation> = {}): Promise<Recommendation> {
  const [row] = await db.insert(recommendations).values(buildRecommendation({ ...overrides, profileId })).returning();
  invalidate("recommendations");
  return row;
}

export async function createMessage(db: Db, recipientId: string, overrides: Partial<NewMessage> = {}): Promise<Message> {
  const [row] = await db.insert(messages).values(buildMessage({ ...overrides, recipientId })).returning();
  // The one read state (decision 054): a message built read has its recipient's read row.
  if (row.isRead) await db.insert(messageReads).values({ profileId: recipientId, messageId: row.id, readAt: row.updatedAt });
  return row;
}

/** Grants the admin role to an existing user (idempotent). */
export async function makeAdmin(db: Db, userId: string): Promise<void> {
  await db.insert(userRoles).values({ userId, role: "admin" }).onConflictDoNothing();
}

/** The credential account's password hash of a user, if any (for assertions). */
export async function getPasswordHash(db: Db, userId: string): Promise<string | null> {
  const [row] = await db
    .select({ password: account.password })
    .from(account)
    .where(and(eq(account.userId, userId), eq(account.providerId, "credential")))
    .limit(1);
  return row?.password ?? null;
}

/**
 * Sets how often members get the e-mails of some kinds (all by default): a test that reads an
 * e-mail sent at once chooses « immédiatement », as the member would in the settings.
 */
export async function setEmailFrequency(db: Db, members: ReadonlyArray<{ user: { id: string } }>, frequency: EmailFrequency, kinds: readonly EmailKind[] = EMAIL_KINDS): Promise<void> {
  for (const m of members) {
    for (const kind of kinds) {
      await db
        .insert(emailPreferences)
        .values({ userId: m.user.id, emailKind: kind, frequency })
        .onConflictDoUpdate({ target: [emailPreferences.userId, emailPreferences.emailKind], set: { frequency } });
    }
  }
}
