// The settings pages and the sections each one holds. Old links name a section
// (/parametres?section=sessions, e-mails already sent, bookmarks): they lead to its page.

export type SettingsPage = { path: string; label: string; sections: readonly string[]; profileOnly?: "profile" | "member" };

export const SETTINGS_PAGES: readonly SettingsPage[] = [
  { path: "/parametres", label: "Profil du compte", sections: ["evaluations"] },
  { path: "/parametres/securite", label: "Sécurité", sections: ["mot-de-passe", "securite", "sessions"] },
  { path: "/parametres/notifications", label: "Notifications", sections: ["notifications"] },
  { path: "/parametres/assurance", label: "Assurance", sections: [], profileOnly: "member" },
  { path: "/parametres/facturation", label: "Facturation", sections: [], profileOnly: "profile" },
  { path: "/parametres/donnees", label: "Mes données", sections: ["donnees"] },
];

/** The page holding `section`; the account page for an unknown one. */
export function settingsPath(section: string): string {
  return SETTINGS_PAGES.find((page) => page.sections.includes(section))?.path ?? "/parametres";
}

/** Where an old `/parametres?section=…` link goes (its other parameters kept), or null when it names none. */
export function legacySectionTarget(url: URL): string | null {
  const section = url.searchParams.get("section");
  if (section === null) return null;
  const rest = new URLSearchParams(url.searchParams);
  rest.delete("section");
  const query = rest.toString();
  return `${settingsPath(section)}${query ? `?${query}` : ""}`;
}

/** The pages a member sees in the settings' navigation. */
export function visibleSettingsPages(account: { hasProfile: boolean; isMember: boolean }): SettingsPage[] {
  return SETTINGS_PAGES.filter((page) =>
    page.profileOnly === "member" ? account.isMember : page.profileOnly === "profile" ? account.hasProfile : true,
  );
}
