// The request lists a file starts from, per operation type: what a buyer's advisers
// usually ask of the seller in a French business transfer. A share deal examines the company
// itself (corporate records, liabilities); a goodwill sale examines the business sold (the
// commercial lease, the staff transferred under article L. 1224-1 of the labour code, the
// seller's tax position for the buyer's joint liability). Members edit the list afterwards.
import { OPERATION_TYPE_LABELS, type OperationType } from "~/features/collaboration/agreement-rules";
import type { DdCategory } from "./due-diligence-rules";

export type TemplateItem = { category: DdCategory; title: string };

const SHARES: readonly TemplateItem[] = [
  { category: "juridique", title: "Extrait Kbis de moins de trois mois" },
  { category: "juridique", title: "Statuts à jour certifiés conformes" },
  { category: "juridique", title: "Registre des mouvements de titres et tableau de répartition du capital" },
  { category: "juridique", title: "Procès-verbaux des assemblées générales des trois derniers exercices" },
  { category: "juridique", title: "Pactes d’associés, conventions de vote et engagements hors bilan" },
  { category: "juridique", title: "Liste des filiales et participations" },
  { category: "juridique", title: "Contentieux en cours ou menacés, avec l’estimation du risque" },
  { category: "juridique", title: "Autorisations administratives, agréments et certifications" },
  { category: "juridique", title: "Titres de propriété intellectuelle (marques, brevets, noms de domaine)" },
  { category: "social", title: "Registre unique du personnel" },
  { category: "social", title: "Contrats de travail des salariés clés et des cadres dirigeants" },
  { category: "social", title: "Convention collective applicable et accords d’entreprise" },
  { category: "social", title: "Procès-verbaux du CSE des deux dernières années" },
  { category: "social", title: "Bulletins de paie des douze derniers mois et état des congés payés" },
  { category: "social", title: "Contentieux prud’homaux en cours" },
  { category: "social", title: "Attestations de vigilance URSSAF et derniers contrôles" },
  { category: "fiscal", title: "Liasses fiscales des trois derniers exercices" },
  { category: "fiscal", title: "Déclarations de TVA des douze derniers mois" },
  { category: "fiscal", title: "Avis de CFE et de CVAE" },
  { category: "fiscal", title: "Rapports et propositions de rectification des contrôles fiscaux" },
  { category: "fiscal", title: "Attestation de régularité fiscale" },
  { category: "financier", title: "Comptes annuels certifiés des trois derniers exercices" },
  { category: "financier", title: "Rapports du commissaire aux comptes" },
  { category: "financier", title: "Situation intermédiaire et balance générale à date" },
  { category: "financier", title: "Budget et prévisionnel de l’exercice en cours" },
  { category: "financier", title: "Tableau des emprunts, crédits-bails et garanties données" },
  { category: "financier", title: "Balance âgée clients et fournisseurs" },
  { category: "financier", title: "État des stocks et méthode de valorisation" },
  { category: "financier", title: "Comptes courants d’associés" },
  { category: "immobilier", title: "Baux commerciaux et leurs avenants" },
  { category: "immobilier", title: "Titres de propriété des immeubles" },
  { category: "immobilier", title: "Diagnostics techniques et environnementaux des locaux" },
  { category: "immobilier", title: "Quittances de loyer des douze derniers mois" },
  { category: "contrats", title: "Contrats avec les dix premiers clients" },
  { category: "contrats", title: "Contrats avec les principaux fournisseurs et sous-traitants" },
  { category: "contrats", title: "Clauses de changement de contrôle des contrats significatifs" },
  { category: "contrats", title: "Contrats de crédit-bail et de location financière" },
  { category: "contrats", title: "Polices d’assurance et sinistralité des trois dernières années" },
  { category: "contrats", title: "Contrats de licence et de franchise" },
  { category: "contrats", title: "Contrats conclus avec les dirigeants ou les associés" },
];

const GOODWILL: readonly TemplateItem[] = [
  { category: "juridique", title: "Extrait Kbis du cédant de moins de trois mois" },
  { category: "juridique", title: "État des inscriptions des privilèges et nantissements sur le fonds" },
  { category: "juridique", title: "Origine de propriété du fonds (acte d’acquisition ou de création)" },
  { category: "juridique", title: "Licences, autorisations administratives et agréments d’exploitation" },
  { category: "juridique", title: "Marques, nom commercial, enseigne et noms de domaine" },
  { category: "juridique", title: "Contentieux en cours liés à l’exploitation du fonds" },
  { category: "social", title: "Liste du personnel transféré (article L. 1224-1 du code du travail)" },
  { category: "social", title: "Contrats de travail et avenants du personnel transféré" },
  { category: "social", title: "Bulletins de paie des douze derniers mois et état des congés payés" },
  { category: "social", title: "Convention collective applicable" },
  { category: "social", title: "Attestation de vigilance URSSAF" },
  { category: "fiscal", title: "Déclarations de résultats des trois derniers exercices" },
  { category: "fiscal", title: "Déclarations de TVA des douze derniers mois" },
  { category: "fiscal", title: "Avis de CFE" },
  { category: "fiscal", title: "Attestation de régularité fiscale" },
  { category: "financier", title: "Chiffres d’affaires et résultats d’exploitation des trois derniers exercices" },
  { category: "financier", title: "Chiffre d’affaires mensuel depuis le dernier exercice clos" },
  { category: "financier", title: "Livres de comptabilité visés par le cédant" },
  { category: "financier", title: "Inventaire du matériel et du mobilier cédés" },
  { category: "financier", title: "État des stocks à reprendre et méthode de valorisation" },
  { category: "immobilier", title: "Bail commercial, avenants et renouvellements" },
  { category: "immobilier", title: "Accord du bailleur sur la cession et le droit de préemption" },
  { category: "immobilier", title: "Quittances de loyer des douze derniers mois" },
  { category: "immobilier", title: "État des lieux d’entrée et diagnostics techniques des locaux" },
  { category: "immobilier", title: "Conformité des locaux (accessibilité, sécurité incendie)" },
  { category: "contrats", title: "Contrats fournisseurs transférables" },
  { category: "contrats", title: "Contrats de location de matériel et de crédit-bail" },
  { category: "contrats", title: "Polices d’assurance du fonds" },
  { category: "contrats", title: "Contrats de franchise ou de distribution" },
];

const LEASE_MANAGEMENT: readonly TemplateItem[] = GOODWILL.filter((i) => i.category !== "social" || i.title.startsWith("Liste"));

export const DD_TEMPLATES: Record<OperationType, readonly TemplateItem[]> = {
  titres: SHARES,
  fonds_de_commerce: GOODWILL,
  location_gerance: LEASE_MANAGEMENT,
  apport_partiel: SHARES,
  autre: SHARES,
};

export const DD_TEMPLATE_LABELS: Record<OperationType, string> = OPERATION_TYPE_LABELS;
