import { describe, expect, it } from "vitest";
import { legacySectionTarget, settingsPath, visibleSettingsPages } from "./pages";

describe("settings pages", () => {
  it.each([
    ["mot-de-passe", "/parametres/securite"],
    ["securite", "/parametres/securite"],
    ["sessions", "/parametres/securite"],
    ["notifications", "/parametres/notifications"],
    ["evaluations", "/parametres"],
    ["donnees", "/parametres/donnees"],
    ["inconnue", "/parametres"],
  ])("section %s lives on %s", (section, path) => {
    expect(settingsPath(section)).toBe(path);
  });

  it.each([
    ["/parametres", null],
    ["/parametres?section=securite&admin=1", "/parametres/securite?admin=1"],
    ["/parametres?section=notifications", "/parametres/notifications"],
    ["/parametres?section=", "/parametres"],
  ])("an old link %s leads to %s", (url, target) => {
    expect(legacySectionTarget(new URL(url, "http://localhost"))).toBe(target);
  });

  it.each([
    [{ hasProfile: false, isMember: false }, ["Profil du compte", "Sécurité", "Notifications", "Mes données"]],
    [{ hasProfile: true, isMember: false }, ["Profil du compte", "Sécurité", "Notifications", "Facturation", "Mes données"]],
    [{ hasProfile: true, isMember: true }, ["Profil du compte", "Sécurité", "Notifications", "Assurance", "Facturation", "Mes données"]],
  ])("an account %o sees %o", (account, labels) => {
    expect(visibleSettingsPages(account).map((p) => p.label)).toEqual(labels);
  });
});
