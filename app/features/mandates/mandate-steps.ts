// The steps of the mandate form: type and exclusivity → criteria (buyer) or company
// (seller) → confidential client → review. One form holds every field; the steps only show a part
// of it at a time, and an error (from the browser or the server) brings back the step holding it.
import type { MandateType } from "./mandate-rules";

export const MANDATE_STEPS = ["type", "details", "client", "review"] as const;
export type MandateStep = (typeof MANDATE_STEPS)[number];

export function mandateStepTitle(step: MandateStep, type: MandateType): string {
  switch (step) {
    case "type":
      return "Type et exclusivité";
    case "details":
      return type === "buyer" ? "Critères de l’acquéreur" : "Entreprise cédée";
    case "client":
      return "Client confidentiel";
    case "review":
      return "Vérification";
  }
}

const FIELDS_BY_STEP: Record<Exclude<MandateStep, "review">, readonly string[]> = {
  type: ["mandateType", "startDate", "endDate"],
  details: [
    "searchSectors",
    "searchTerritories",
    "targetAmountMin",
    "targetAmountMax",
    "contributionMin",
    "contributionMax",
    "maUsage",
    "companySector",
    "companyTerritory",
    "companyDescription",
    "valuationAmount",
    "requiredContributionMin",
    "requiredContributionMax",
    "projectTimeline",
    "targetBuyerTypes",
    "description",
  ],
  client: ["clientCode", "clientName", "clientAddress"],
};

/** The fields a step holds (the review holds the certification and the form's own errors). */
export function stepFields(step: MandateStep): readonly string[] {
  return step === "review" ? ["isExclusive"] : FIELDS_BY_STEP[step];
}

/** The step of a field name ('searchSectors[1]' is 'searchSectors'); unknown names and the form's errors go to the review. */
export function stepOfField(name: string): MandateStep {
  const base = name.replace(/\[\d+\]$/, "");
  for (const step of ["type", "details", "client"] as const) {
    if (FIELDS_BY_STEP[step].includes(base)) return step;
  }
  return "review";
}

/** The first step holding one of these errors (keys as Conform reports them), or null without any. */
export function firstStepWithError(error: Record<string, unknown> | null | undefined): MandateStep | null {
  if (!error) return null;
  const keys = Object.entries(error)
    .filter(([, messages]) => Array.isArray(messages) ? messages.length > 0 : Boolean(messages))
    .map(([key]) => key);
  if (keys.length === 0) return null;
  const index = Math.min(...keys.map((k) => MANDATE_STEPS.indexOf(stepOfField(k))));
  return MANDATE_STEPS[index];
}
