// The option lists of the directory filters, from the reference tables. The member directory's
// page imports them (its cards already carry these tables); the public directory receives them
// from its loader, so that the public pages' browser bundles carry no reference table.
import { DEPARTMENTS, departmentLabel, PROFESSIONS, SECTORS, sectorLabel } from "~/db/reference";

export type FilterOption = { value: string; label: string };

/** The option lists of the directory filters (public and internal directory), 'all' excluded. */
export type DirectoryFilterOptions = {
  departments: FilterOption[];
  sectors: FilterOption[];
  professions: FilterOption[];
};

/** Departments "75 - Paris", sectors "C - Industrie manufacturière", professions by their label (one shared value: not to be mutated). */
export const DIRECTORY_FILTER_OPTIONS: DirectoryFilterOptions = {
  departments: DEPARTMENTS.map((d) => ({ value: d.code, label: departmentLabel(d.code) })),
  sectors: SECTORS.map((s) => ({ value: s.code, label: sectorLabel(s.code) })),
  professions: PROFESSIONS.map((p) => ({ value: p.code, label: p.label })),
};
