import { describe, expect, it } from "vitest";
import { activeAdminSection, activePlace, ADMIN_SECTIONS, frameFor, MEMBER_PLACES, placesFor } from "./places";

describe("activePlace", () => {
  it.each([
    ["/dashboard", "apercu"],
    ["/dashboard/", "apercu"],
    ["/dashboard/messages", "messages"],
    ["/dashboard/messages/5b0c…", "messages"],
    ["/dashboard/annuaire", "annuaire"],
    ["/dashboard/mandats", "mandats"],
    ["/mandates", "mandats"],
    ["/mandates/nouveau", "mandats"],
    ["/dashboard/dossiers", "dossiers"],
    ["/dashboard/dossiers/abc/documents", "dossiers"],
    ["/dashboard/stats", "stats"],
    ["/dashboard/profil", "profil"],
    ["/admin", "admin"],
    ["/admin/journal", "admin"],
    ["/parametres", null],
    ["/premium", null],
    ["/dashboard/messagesx", null],
    ["/mandatesx", null],
    ["/", null],
  ])("%s → %s", (path, place) => {
    expect(activePlace(path)).toBe(place);
  });
});

describe("placesFor", () => {
  it.each([
    [{ member: true, admin: false }, ["apercu", "messages", "annuaire", "mandats", "dossiers", "stats", "profil"]],
    [{ member: true, admin: true }, ["apercu", "messages", "annuaire", "mandats", "dossiers", "stats", "profil", "admin"]],
    [{ member: false, admin: true }, ["admin"]],
    [{ member: false, admin: false }, []],
  ])("%o", (user, keys) => {
    expect(placesFor(user).map((p) => p.key)).toEqual(keys);
  });

  it("every place's own URL is active on itself", () => {
    for (const place of MEMBER_PLACES) expect(activePlace(place.to)).toBe(place.key);
  });
});

describe("activeAdminSection", () => {
  it.each([
    ["/admin", "profils"],
    ["/admin/", "profils"],
    ["/admin/deals", "references"],
    ["/admin/recommandations", "recommandations"],
    ["/admin/mediations/abc", "mediations"],
    ["/admin/evaluations", "evaluations"],
    ["/admin/journal", "journal"],
    ["/admin/journalx", null],
    ["/dashboard", null],
  ])("%s → %s", (path, key) => {
    expect(activeAdminSection(path)).toBe(key);
  });

  it("every section's own URL is active on itself", () => {
    for (const section of ADMIN_SECTIONS) expect(activeAdminSection(section.to)).toBe(section.key);
  });
});

describe("frameFor", () => {
  const member = { member: true, admin: false };
  const both = { member: true, admin: true };
  const adminOnly = { member: false, admin: true };
  const applicant = { member: false, admin: false };
  it.each([
    [member, "/dashboard", "member"],
    [member, "/parametres", "member"],
    [both, "/dashboard", "member"],
    [both, "/admin", "admin"],
    [both, "/admin/journal", "admin"],
    [both, "/administration", "member"],
    [adminOnly, "/admin", "admin"],
    [adminOnly, "/parametres/securite", "admin"],
    [applicant, "/onboarding", "applicant"],
    [applicant, "/parametres", "applicant"],
  ] as const)("%o on %s → %s", (user, path, frame) => {
    expect(frameFor(user, path)).toBe(frame);
  });
});
