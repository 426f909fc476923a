import { describe, expect, it } from "vitest";
import { firstStepWithError, mandateStepTitle, stepOfField } from "./mandate-steps";

describe("mandate form steps", () => {
  it.each([
    ["mandateType", "type"],
    ["endDate", "type"],
    ["searchSectors", "details"],
    ["searchTerritories[2]", "details"],
    ["valuationAmount", "details"],
    ["description", "details"],
    ["clientAddress", "client"],
    ["isExclusive", "review"],
    ["", "review"],
    ["somethingElse", "review"],
  ])("%j belongs to %s", (name, step) => {
    expect(stepOfField(name)).toBe(step);
  });

  it.each([
    [null, null],
    [{}, null],
    [{ clientName: [] }, null],
    [{ isExclusive: ["x"] }, "review"],
    [{ "": ["Limite atteinte"] }, "review"],
    [{ clientName: ["x"], isExclusive: ["x"] }, "client"],
    [{ clientName: ["x"], endDate: ["x"] }, "type"],
    [{ targetAmountMax: ["x"], clientCode: ["x"] }, "details"],
  ])("errors %j → step %s", (error, step) => {
    expect(firstStepWithError(error)).toBe(step);
  });

  it("names the second step after the type", () => {
    expect(mandateStepTitle("details", "buyer")).toBe("Critères de l’acquéreur");
    expect(mandateStepTitle("details", "seller")).toBe("Entreprise cédée");
  });
});
