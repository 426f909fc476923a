import { describe, expect, it } from "vitest";
import { DEAL_YEAR_COUNT, dealYears, isDealYear } from "./deal-years";

describe("deal years", () => {
  const now = new Date(2026, 5, 15);

  it("lists 20 years, the current one first", () => {
    const years = dealYears(now);
    expect(years).toHaveLength(DEAL_YEAR_COUNT);
    expect(years[0]).toBe(2026);
    expect(years.at(-1)).toBe(2007);
  });

  it.each([
    [2026, true],
    [2007, true],
    [2006, false],
    [2027, false],
    [2020.5, false],
  ])("%s is offered: %s", (year, expected) => {
    expect(isDealYear(year, now)).toBe(expected);
  });
});
