// The labels the directory pages display, resolved on the server: the loaders send names, not
// codes to look up, so that the public pages' browser bundles carry no reference table
// (departments, sectors, professions; front-end budget, `npm run lighthouse`).
import { DEPARTMENTS, departmentLabel, departmentName, PROFESSIONS, professionLabel, SECTORS, sectorLabel, sectorName } from "~/db/reference";

export type FilterOption = { value: string; label: string };

/** The option lists of the directory filters (public and internal directory), 'all' excluded. */
export type DirectoryFilterOptions = {
  departments: FilterOption[];
  sectors: FilterOption[];
  professions: FilterOption[];
};

const FILTER_OPTIONS: DirectoryFilterOptions = {
  departments: DEPARTMENTS.map((d) => ({ value: d.code, label: departmentLabel(d.code) })),
  sectors: SECTORS.map((s) => ({ value: s.code, label: sectorLabel(s.code) })),
  professions: PROFESSIONS.map((p) => ({ value: p.code, label: p.label })),
};

/** Departments "75 - Paris", sectors "C - Industrie manufacturière", professions by their label (one shared value: not to be mutated). */
export function directoryFilterOptions(): DirectoryFilterOptions {
  return FILTER_OPTIONS;
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
