import { describe, expect, it } from "vitest";
import { activePlace, MEMBER_PLACES, placesFor } from "./places";

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
