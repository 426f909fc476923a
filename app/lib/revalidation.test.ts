import { describe, expect, it } from "vitest";
import type { ShouldRevalidateFunctionArgs } from "react-router";
import { keepFrameOnNavigation } from "./revalidation";

const at = (path: string) => new URL(path, "http://x");
function args(from: string, to: string, extra: Partial<ShouldRevalidateFunctionArgs> = {}): ShouldRevalidateFunctionArgs {
  return { currentUrl: at(from), nextUrl: at(to), currentParams: {}, nextParams: {}, defaultShouldRevalidate: true, ...extra } as ShouldRevalidateFunctionArgs;
}

describe("keepFrameOnNavigation", () => {
  it.each([
    // [case, from, to, extra, expected]
    ["a search on the same page", "/dashboard/annuaire", "/dashboard/annuaire?q=Dupont", {}, false],
    ["a filter changed", "/dashboard/annuaire?q=a", "/dashboard/annuaire?q=a&departement=75", {}, false],
    ["a link to another page with a search", "/dashboard", "/mandates?matching=1", {}, false],
    ["a link to another page", "/dashboard", "/dashboard/annuaire", { defaultShouldRevalidate: false }, false],
    ["a GET form (filters)", "/admin", "/admin?q=Monnier", { formMethod: "GET" }, false],
    ["a GET form in lower case", "/admin", "/admin?q=Monnier", { formMethod: "get" as ShouldRevalidateFunctionArgs["formMethod"] }, false],
    ["a POST after which the default revalidates", "/dashboard/profil", "/dashboard/profil", { formMethod: "POST" }, true],
    ["a POST redirected elsewhere", "/onboarding", "/dashboard", { formMethod: "POST" }, true],
    ["a POST the route declines (default false)", "/dashboard/profil", "/dashboard/profil", { formMethod: "POST", defaultShouldRevalidate: false }, false],
    ["an explicit revalidation (same URL)", "/dashboard/annuaire?q=a", "/dashboard/annuaire?q=a", {}, true],
  ] as const)("%s", (_, from, to, extra, expected) => {
    expect(keepFrameOnNavigation(args(from, to, extra))).toBe(expected);
  });
});
