import type { MetaDescriptor } from "react-router";

type RootData = { appName?: string } | undefined;
type MatchLike = { id: string; loaderData?: unknown } | undefined;

/** The product name from the root loader (APP_NAME), for titles. */
export function appNameFrom(matches: readonly MatchLike[]): string {
  const root = matches.find((m) => m?.id === "root")?.loaderData as RootData;
  return root?.appName ?? "Réseau Transmission";
}

export function pageMeta(matches: readonly MatchLike[], title: string, description?: string): MetaDescriptor[] {
  const appName = appNameFrom(matches);
  const out: MetaDescriptor[] = [{ title: title ? `${title} — ${appName}` : appName }];
  if (description) out.push({ name: "description", content: description });
  return out;
}
