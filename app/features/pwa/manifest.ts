// The web app manifest: the product installs on a phone's home screen under its
// French name, in the theme colour of app/app.css (--color-primary), opening on the member space.
// Pure, so that its fields are tested; the route serves it as JSON.

/** --color-primary and --color-background of app/app.css. */
export const THEME_COLOR = "#1e3a8a";
export const BACKGROUND_COLOR = "#ffffff";

export type WebAppManifest = {
  name: string;
  short_name: string;
  description: string;
  lang: string;
  dir: "ltr";
  id: string;
  start_url: string;
  scope: string;
  display: "standalone";
  orientation: "any";
  theme_color: string;
  background_color: string;
  categories: string[];
  icons: { src: string; sizes: string; type: "image/png" | "image/svg+xml"; purpose: "any" | "maskable" }[];
};

/** The short name stays under 12 characters, as home screens cut longer ones. */
export function shortName(appName: string): string {
  if (Array.from(appName).length <= 12) return appName;
  const initials = appName
    .split(/[\s-]+/)
    .filter(Boolean)
    .map((w) => Array.from(w)[0]!.toUpperCase())
    .join("");
  return initials.length >= 2 ? initials : Array.from(appName).slice(0, 12).join("");
}

export function webAppManifest(appName: string): WebAppManifest {
  return {
    name: appName,
    short_name: shortName(appName),
    description: "Le réseau des professionnels de la transmission d’entreprise\u00a0: mandats, mises en relation et messages entre confrères.",
    lang: "fr",
    dir: "ltr",
    id: "/",
    start_url: "/dashboard",
    scope: "/",
    display: "standalone",
    orientation: "any",
    theme_color: THEME_COLOR,
    background_color: BACKGROUND_COLOR,
    categories: ["business", "productivity"],
    icons: [
      { src: "/icons/icon-192.png", sizes: "192x192", type: "image/png", purpose: "any" },
      { src: "/icons/icon-512.png", sizes: "512x512", type: "image/png", purpose: "any" },
      { src: "/icons/icon-maskable-512.png", sizes: "512x512", type: "image/png", purpose: "maskable" },
      { src: "/icons/icon.svg", sizes: "any", type: "image/svg+xml", purpose: "any" },
    ],
  };
}
