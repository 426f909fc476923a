// /sitemap.xml: public pages and validated public profiles. Public by design: it lists only
// what the directory already shows to anyone.
import { sitemapEntries, sitemapXml } from "~/features/directory/sitemap";
import { listSitemapProfiles } from "~/features/directory/sitemap.server";
import { getEnv } from "~/lib/env.server";
import { atEdge } from "~/lib/errors/http";

export const loader = atEdge(async function loader() {
  const profiles = await listSitemapProfiles();
  return new Response(sitemapXml(sitemapEntries(getEnv().APP_URL, profiles)), {
    headers: { "Content-Type": "application/xml; charset=utf-8", "Cache-Control": "public, max-age=3600" },
  });
});
