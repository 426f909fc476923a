// The public profile's structured data (schema.org Person) and meta texts, from the profile and
// the labels its loader resolved (the reference tables stay on the server).
import type { PublicProfileLabels } from "~/features/directory/labels.server";
import { metaDescription } from "~/lib/seo";
import type { PublicProfile } from "./public-profile.server";

/** Name of a sector the loader resolved (the code itself otherwise, as the reference table does). */
export function sectorNameOf(labels: PublicProfileLabels, code: string): string {
  return labels.sectors[code] ?? code;
}

export function personJsonLd(p: PublicProfile, labels: PublicProfileLabels, origin: string) {
  return {
    "@context": "https://schema.org",
    "@type": "Person",
    name: `${p.firstName} ${p.lastName}`,
    givenName: p.firstName,
    familyName: p.lastName,
    jobTitle: labels.profession,
    worksFor: { "@type": "Organization", name: p.company },
    url: `${origin}/consultant/${p.slug}`,
    ...(p.photoUrl ? { image: new URL(p.photoUrl, origin).toString() } : {}),
    ...(p.locationCity || p.locationDepartment
      ? {
          address: {
            "@type": "PostalAddress",
            ...(p.locationCity ? { addressLocality: p.locationCity } : {}),
            ...(labels.department ? { addressRegion: labels.department } : {}),
            addressCountry: "FR",
          },
        }
      : {}),
    ...(p.linkedinUrl ? { sameAs: [p.linkedinUrl] } : {}),
    knowsAbout: p.specializationSectors.map((c) => sectorNameOf(labels, c)),
  };
}

/** The description and keywords of the page's meta tags. */
export function profileSeo(p: PublicProfile, labels: PublicProfileLabels) {
  const fullName = `${p.firstName} ${p.lastName}`;
  const description =
    metaDescription(p.detailedPresentation || p.experienceDescription) ||
    `${fullName}, ${labels.profession} chez ${p.company}${p.locationCity ? ` à ${p.locationCity}` : ""}.`;
  const keywords = [...p.specializationSectors.slice(0, 5).map((c) => sectorNameOf(labels, c)), labels.profession, "transmission d’entreprise"];
  return { description, keywords: keywords.join(", ") };
}

/** The page's meta tags: title, description, canonical address, Open Graph and Twitter card. */
export function profileMetaTags(
  p: PublicProfile,
  o: { profession: string; description: string; keywords: string; origin: string; appName: string },
) {
  const fullName = `${p.firstName} ${p.lastName}`;
  const title = `${fullName} - ${o.profession} | ${o.appName}`;
  const url = `${o.origin}/consultant/${p.slug}`;
  return [
    { title },
    { name: "description", content: o.description },
    { name: "keywords", content: o.keywords },
    { name: "author", content: fullName },
    { name: "robots", content: "index, follow" },
    { tagName: "link", rel: "canonical", href: url },
    { property: "og:type", content: "profile" },
    { property: "og:title", content: title },
    { property: "og:description", content: o.description },
    { property: "og:url", content: url },
    { property: "og:site_name", content: o.appName },
    { property: "og:locale", content: "fr_FR" },
    ...(p.photoUrl ? [{ property: "og:image", content: new URL(p.photoUrl, o.origin).toString() }] : []),
    { property: "profile:first_name", content: p.firstName },
    { property: "profile:last_name", content: p.lastName },
    { name: "twitter:card", content: "summary" },
    { name: "twitter:title", content: title },
    { name: "twitter:description", content: o.description },
  ];
}
