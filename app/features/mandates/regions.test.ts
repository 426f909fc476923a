import { describe, expect, it } from "vitest";
import { DEPARTMENT_CODES } from "~/db/reference";
import { departmentGroups, DEPARTMENT_REGIONS } from "./regions";

describe("départements by region", () => {
  it("places every département in exactly one region", () => {
    const listed = DEPARTMENT_REGIONS.flatMap((r) => r.codes);
    expect(new Set(listed).size).toBe(listed.length);
    expect([...listed].sort()).toEqual([...DEPARTMENT_CODES].sort());
  });

  it.each([
    ["75", "Île-de-France"],
    ["2A", "Corse"],
    ["976", "Outre-mer"],
    ["69", "Auvergne-Rhône-Alpes"],
    ["13", "Provence-Alpes-Côte d’Azur"],
  ])("%s is in %s", (code, region) => {
    expect(DEPARTMENT_REGIONS.find((r) => r.codes.includes(code))?.region).toBe(region);
  });

  it("labels the options with code and name", () => {
    const idf = departmentGroups().find((g) => g.label === "Île-de-France");
    expect(idf?.options[0]).toEqual({ value: "75", label: "75 - Paris" });
  });
});
