// The validated profiles listed in /sitemap.xml: only what a slug and a lastmod need.
import { desc, eq } from "drizzle-orm";
import { db } from "~/db/client.server";
import { profiles } from "~/db/schema";
import { SITEMAP_MAX_URLS, SITEMAP_PUBLIC_PATHS, type SitemapProfile } from "./sitemap";

export async function listSitemapProfiles(): Promise<SitemapProfile[]> {
  return db
    .select({
      id: profiles.id,
      firstName: profiles.firstName,
      lastName: profiles.lastName,
      profession: profiles.profession,
      updatedAt: profiles.updatedAt,
    })
    .from(profiles)
    .where(eq(profiles.profileStatus, "validated"))
    // Newest first (profiles_status_created_idx) so that the cap keeps a stable, indexed order.
    .orderBy(desc(profiles.createdAt), desc(profiles.id))
    .limit(SITEMAP_MAX_URLS - SITEMAP_PUBLIC_PATHS.length);
}
