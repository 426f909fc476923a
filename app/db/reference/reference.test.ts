import { describe, expect, it } from "vitest";
import { z } from "zod";
import {
  COLLEGES,
  COLLEGE_CODES,
  DEPARTMENTS,
  DEPARTMENT_CODES,
  PROFESSIONS,
  PROFESSION_CODES,
  SECTORS,
  SECTOR_CODES,
  collegeLabel,
  departmentLabel,
  departmentName,
  isCollegeCode,
  isDepartmentCode,
  isProfessionCode,
  isSectorCode,
  professionLabel,
  sectorLabel,
  sectorName,
} from "~/db/reference";

describe("sectors", () => {
  it("has the 21 NAF sections A to U in order", () => {
    expect(SECTORS).toHaveLength(21);
    expect(SECTORS.map((s) => s.code).join("")).toBe("ABCDEFGHIJKLMNOPQRSTU");
    expect([...SECTOR_CODES]).toEqual(SECTORS.map((s) => s.code));
    expect(SECTORS.every((s) => s.name.length > 0)).toBe(true);
  });

  it.each([
    ["A", "Agriculture, sylviculture et pêche"],
    ["C", "Industrie manufacturière"],
    ["F", "Construction"],
    ["M", "Activités spécialisées, scientifiques et techniques"],
    ["U", "Activités extra-territoriales"],
    ["Z", "Z"],
    ["", ""],
    ["a", "a"],
  ])("sectorName(%j) = %j", (code, expected) => {
    expect(sectorName(code)).toBe(expected);
  });

  it.each([
    ["F", "F - Construction"],
    ["X", "X"],
  ])("sectorLabel(%j) = %j", (code, expected) => {
    expect(sectorLabel(code)).toBe(expected);
  });

  it.each<[unknown, boolean]>([
    ["A", true],
    ["U", true],
    ["V", false],
    ["a", false],
    [null, false],
    [1, false],
    ["toString", false],
  ])("isSectorCode(%j) = %j", (value, expected) => {
    expect(isSectorCode(value)).toBe(expected);
  });
});

describe("professions", () => {
  it("has 11 unique professions", () => {
    expect(PROFESSIONS).toHaveLength(11);
    expect(new Set(PROFESSION_CODES).size).toBe(11);
    expect([...PROFESSION_CODES]).toEqual(PROFESSIONS.map((p) => p.code));
    expect(PROFESSION_CODES.every((code) => /^[a-z]+(_[a-z]+)*$/.test(code))).toBe(true);
  });

  it.each([
    ["avocat_affaires", "Avocat d’affaires / M&A"],
    ["avocat_fiscaliste", "Avocat fiscaliste"],
    ["notaire", "Notaire"],
    ["expert_comptable", "Expert-comptable"],
    ["commissaire_aux_comptes", "Commissaire aux comptes"],
    ["conseiller_patrimoine", "Conseiller en gestion de patrimoine"],
    ["conseil_ma", "Conseil en fusions-acquisitions"],
    ["conseil_levee_fonds", "Conseil en levée de fonds"],
    ["conseil_cession_commerce", "Conseil en cession de fonds de commerce"],
    ["conseil_immobilier_commercial", "Conseil en immobilier commercial"],
    ["expert_evaluation", "Expert en évaluation d’entreprise"],
    ["banquier", "banquier"],
    ["", ""],
  ])("professionLabel(%j) = %j", (code, expected) => {
    expect(professionLabel(code)).toBe(expected);
  });

  it.each<[unknown, boolean]>([
    ["notaire", true],
    ["Notaire", false],
    [undefined, false],
    ["constructor", false],
  ])("isProfessionCode(%j) = %j", (value, expected) => {
    expect(isProfessionCode(value)).toBe(expected);
  });
});

describe("departments", () => {
  it("has 101 unique departments: 01–19, 2A, 2B, 21–95 and 5 overseas", () => {
    const expected = [
      ...Array.from({ length: 19 }, (_, i) => String(i + 1).padStart(2, "0")),
      "2A",
      "2B",
      ...Array.from({ length: 75 }, (_, i) => String(i + 21)),
      "971",
      "972",
      "973",
      "974",
      "976",
    ];
    expect(DEPARTMENTS).toHaveLength(101);
    expect(new Set(DEPARTMENT_CODES).size).toBe(101);
    expect(DEPARTMENTS.map((d) => d.code)).toEqual(expected);
    expect([...DEPARTMENT_CODES]).toEqual(expected);
    expect(new Set(DEPARTMENTS.map((d) => d.name)).size).toBe(101);
  });

  it.each([
    ["01", "Ain"],
    ["02", "Aisne"],
    ["13", "Bouches-du-Rhône"],
    ["2A", "Corse-du-Sud"],
    ["2B", "Haute-Corse"],
    ["21", "Côte-d’Or"],
    ["22", "Côtes-d’Armor"],
    ["33", "Gironde"],
    ["59", "Nord"],
    ["69", "Rhône"],
    ["75", "Paris"],
    ["90", "Territoire de Belfort"],
    ["93", "Seine-Saint-Denis"],
    ["95", "Val-d’Oise"],
    ["971", "Guadeloupe"],
    ["972", "Martinique"],
    ["973", "Guyane"],
    ["974", "La Réunion"],
    ["976", "Mayotte"],
    ["20", "20"],
    ["975", "975"],
    ["1", "1"],
  ])("departmentName(%j) = %j", (code, expected) => {
    expect(departmentName(code)).toBe(expected);
  });

  it.each([
    ["75", "75 - Paris"],
    ["2A", "2A - Corse-du-Sud"],
    ["974", "974 - La Réunion"],
    ["20", "20"],
  ])("departmentLabel(%j) = %j", (code, expected) => {
    expect(departmentLabel(code)).toBe(expected);
  });

  it.each<[unknown, boolean]>([
    ["01", true],
    ["2A", true],
    ["2B", true],
    ["976", true],
    ["20", false],
    ["2a", false],
    ["975", false],
    ["96", false],
    [75, false],
  ])("isDepartmentCode(%j) = %j", (value, expected) => {
    expect(isDepartmentCode(value)).toBe(expected);
  });
});

describe("colleges", () => {
  it("has the two colleges", () => {
    expect(COLLEGES.map((c) => c.code)).toEqual(["transmission_entreprises", "transmission_commerces"]);
    expect([...COLLEGE_CODES]).toEqual(COLLEGES.map((c) => c.code));
  });

  it.each([
    ["transmission_entreprises", "Transmission d’entreprises"],
    ["transmission_commerces", "Transmission de commerces"],
    ["autre", "autre"],
  ])("collegeLabel(%j) = %j", (code, expected) => {
    expect(collegeLabel(code)).toBe(expected);
    expect(isCollegeCode(code)).toBe(code !== "autre");
  });
});

describe("code tuples work with z.enum", () => {
  it.each<[string, z.ZodType, string, string]>([
    ["sector", z.enum(SECTOR_CODES), "K", "W"],
    ["profession", z.enum(PROFESSION_CODES), "notaire", "plombier"],
    ["department", z.enum(DEPARTMENT_CODES), "2B", "20"],
    ["college", z.enum(COLLEGE_CODES), "transmission_commerces", "autre"],
  ])("%s", (_name, schema, valid, invalid) => {
    expect(schema.safeParse(valid).success).toBe(true);
    expect(schema.safeParse(invalid).success).toBe(false);
  });
});
