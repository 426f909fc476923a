import { describe, expect, it } from "vitest";
import { advance, canRevisit, onboardingStep, remainingPlaces } from "./onboarding-steps";

describe("onboardingStep", () => {
  it.each([
    [null, "profile", 0],
    [undefined, "profile", 0],
    ["", "profile", 0],
    ["something_else", "profile", 0],
    ["account_created", "charter", 0],
    ["charter_signed", "details", 20],
    ["profile_completed", "recommendations", 40],
    ["recommendations_pending", "payment", 60],
    ["payment_completed", "waiting", 80],
    ["validated", "done", 100],
  ])("%s → %s at %i %%", (status, step, progress) => {
    expect(onboardingStep(status)).toEqual({ step, progress });
  });
});

describe("canRevisit", () => {
  it.each([
    ["payment", "recommendations", true],
    ["payment", "details", true],
    ["payment", "profile", true],
    ["recommendations", "details", true],
    ["details", "profile", true],
    ["charter", "profile", true],
    ["payment", "charter", false],
    ["waiting", "details", false],
    ["done", "profile", false],
    ["details", "recommendations", false],
    ["profile", "profile", false],
    ["recommendations", "payment", false],
  ] as const)("from %s to %s → %s", (from, to, expected) => {
    expect(canRevisit(from, to)).toBe(expected);
  });
});

describe("advance", () => {
  it.each([
    [null, "account_created", "account_created"],
    ["account_created", "charter_signed", "charter_signed"],
    ["recommendations_pending", "profile_completed", "recommendations_pending"],
    ["payment_completed", "recommendations_pending", "payment_completed"],
    ["weird", "profile_completed", "profile_completed"],
  ] as const)("%s + %s → %s", (current, reached, expected) => {
    expect(advance(current, reached)).toBe(expected);
  });
});

describe("remainingPlaces", () => {
  it.each([
    [0, 250],
    [1, 249],
    [200, 50],
    [249, 1],
    [250, 1],
    [400, 1],
    [-3, 250],
  ])("%i validated paid members → %i places", (count, places) => {
    expect(remainingPlaces(count)).toBe(places);
  });
});
