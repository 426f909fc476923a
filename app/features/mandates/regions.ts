// Départements grouped by region (the 13 metropolitan regions of 2016, then the overseas
// départements), for the territory picker of the mandate form.
import { DEPARTMENT_CODES, departmentName } from "~/db/reference";

export const DEPARTMENT_REGIONS: ReadonlyArray<{ region: string; codes: readonly string[] }> = [
  { region: "Auvergne-Rhône-Alpes", codes: ["01", "03", "07", "15", "26", "38", "42", "43", "63", "69", "73", "74"] },
  { region: "Bourgogne-Franche-Comté", codes: ["21", "25", "39", "58", "70", "71", "89", "90"] },
  { region: "Bretagne", codes: ["22", "29", "35", "56"] },
  { region: "Centre-Val de Loire", codes: ["18", "28", "36", "37", "41", "45"] },
  { region: "Corse", codes: ["2A", "2B"] },
  { region: "Grand Est", codes: ["08", "10", "51", "52", "54", "55", "57", "67", "68", "88"] },
  { region: "Hauts-de-France", codes: ["02", "59", "60", "62", "80"] },
  { region: "Île-de-France", codes: ["75", "77", "78", "91", "92", "93", "94", "95"] },
  { region: "Normandie", codes: ["14", "27", "50", "61", "76"] },
  { region: "Nouvelle-Aquitaine", codes: ["16", "17", "19", "23", "24", "33", "40", "47", "64", "79", "86", "87"] },
  { region: "Occitanie", codes: ["09", "11", "12", "30", "31", "32", "34", "46", "48", "65", "66", "81", "82"] },
  { region: "Pays de la Loire", codes: ["44", "49", "53", "72", "85"] },
  { region: "Provence-Alpes-Côte d’Azur", codes: ["04", "05", "06", "13", "83", "84"] },
  { region: "Outre-mer", codes: ["971", "972", "973", "974", "976"] },
];

export type OptionGroup = { label: string; options: Array<{ value: string; label: string }> };

/** The départements as option groups, each group in code order. */
export function departmentGroups(): OptionGroup[] {
  const order = new Map<string, number>(DEPARTMENT_CODES.map((c, i) => [c, i]));
  return DEPARTMENT_REGIONS.map(({ region, codes }) => ({
    label: region,
    options: [...codes]
      .sort((a, b) => (order.get(a) ?? 0) - (order.get(b) ?? 0))
      .map((code) => ({ value: code, label: `${code} - ${departmentName(code)}` })),
  }));
}
