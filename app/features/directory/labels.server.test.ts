import { describe, expect, it } from "vitest";
import { DEPARTMENTS, PROFESSIONS, SECTORS } from "~/db/reference";
import { directoryFilterOptions, publicProfileLabels, sectorNameMap, sectorNames } from "./labels.server";

describe("directoryFilterOptions: the filters' option lists, as the selects showed them", () => {
  const options = directoryFilterOptions();

  it("lists every department, sector and profession, in the tables' order", () => {
    expect(options.departments.map((o) => o.value)).toEqual(DEPARTMENTS.map((d) => d.code));
    expect(options.sectors.map((o) => o.value)).toEqual(SECTORS.map((s) => s.code));
    expect(options.professions.map((o) => o.value)).toEqual(PROFESSIONS.map((p) => p.code));
  });

  it.each([
    ["departments", "01", "01 - Ain"],
    ["departments", "2A", "2A - Corse-du-Sud"],
    ["departments", "976", "976 - Mayotte"],
    ["sectors", "C", "C - Industrie manufacturière"],
    ["sectors", "U", "U - Activités extra-territoriales"],
    ["professions", "notaire", "Notaire"],
    ["professions", "avocat_affaires", "Avocat d’affaires / M&A"],
  ] as const)("%s: %s → %j", (list, value, label) => {
    expect(options[list].find((o) => o.value === value)).toEqual({ value, label });
  });

  it("has nothing but value and label", () => {
    for (const list of [options.departments, options.sectors, options.professions]) {
      for (const o of list) expect(Object.keys(o).sort()).toEqual(["label", "value"]);
    }
  });
});

describe("sectorNames / sectorNameMap", () => {
  it.each([
    [[], []],
    [["C"], ["Industrie manufacturière"]],
    [["I", "C"], ["Hébergement et restauration", "Industrie manufacturière"]],
    // Unknown code: shown as is.
    [["ZZ", "F"], ["ZZ", "Construction"]],
  ])("%j → %j", (codes, names) => {
    expect(sectorNames(codes)).toEqual(names);
  });

  it("treats a missing list as empty", () => {
    expect(sectorNames(null)).toEqual([]);
    expect(sectorNames(undefined)).toEqual([]);
  });

  it("maps the given codes only", () => {
    expect(sectorNameMap(["C", "I", "C", "ZZ"])).toEqual({ C: "Industrie manufacturière", I: "Hébergement et restauration", ZZ: "ZZ" });
    expect(sectorNameMap([])).toEqual({});
  });
});

describe("publicProfileLabels: what the profile page and its meta display", () => {
  it("resolves profession, department and the sectors of the profile and of its deals", () => {
    expect(
      publicProfileLabels({
        profession: "expert_comptable",
        locationDepartment: "69",
        specializationSectors: ["C", "F"],
        certifiedDeals: [{ sector: "I" }, { sector: "C" }],
      }),
    ).toEqual({
      profession: "Expert-comptable",
      department: "Rhône",
      sectors: { C: "Industrie manufacturière", F: "Construction", I: "Hébergement et restauration" },
    });
  });

  it.each([
    [null, null],
    ["", null],
    ["2B", "Haute-Corse"],
    ["99", "99"],
  ])("department %j → %j", (code, name) => {
    expect(publicProfileLabels({ profession: "notaire", locationDepartment: code, specializationSectors: [], certifiedDeals: [] }).department).toBe(name);
  });

  it("falls back to the code for an unknown profession, and carries no sector without one", () => {
    expect(publicProfileLabels({ profession: "pirate", locationDepartment: null, specializationSectors: [], certifiedDeals: [] })).toEqual({
      profession: "pirate",
      department: null,
      sectors: {},
    });
  });
});
