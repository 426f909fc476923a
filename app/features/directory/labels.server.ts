// The labels the directory pages display, resolved on the server: the loaders send names, not
// codes to look up, so that the public pages' browser bundles carry no reference table
// (departments, sectors, professions; front-end budget, `npm run lighthouse`).
import { departmentName, professionLabel, sectorName } from "~/db/reference";
import { DIRECTORY_FILTER_OPTIONS, type DirectoryFilterOptions } from "./filter-options";

/** The option lists of the directory filters, for the public directory's loader (one shared value: not to be mutated). */
export function directoryFilterOptions(): DirectoryFilterOptions {
  return DIRECTORY_FILTER_OPTIONS;
}

/** Sector names in the given order; an unknown code is shown as is. */
export function sectorNames(codes: readonly string[] | null | undefined): string[] {
  return (codes ?? []).map((code) => sectorName(code));
}

/** code → name for the given codes only (not the whole table). */
export function sectorNameMap(codes: Iterable<string>): Record<string, string> {
  const map: Record<string, string> = {};
  for (const code of codes) map[code] = sectorName(code);
  return map;
}

/** What the public profile page and its meta/JSON-LD display, resolved. */
export type PublicProfileLabels = {
  profession: string;
  /** Name of the department, null without one. */
  department: string | null;
  /** Names of the profile's sectors and of its certified deals' sectors. */
  sectors: Record<string, string>;
};

export function publicProfileLabels(p: {
  profession: string;
  locationDepartment: string | null;
  specializationSectors: readonly string[];
  certifiedDeals: ReadonlyArray<{ sector: string }>;
}): PublicProfileLabels {
  return {
    profession: professionLabel(p.profession),
    department: p.locationDepartment ? departmentName(p.locationDepartment) : null,
    sectors: sectorNameMap([...p.specializationSectors, ...p.certifiedDeals.map((d) => d.sector)]),
  };
}
