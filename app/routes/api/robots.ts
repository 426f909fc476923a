// /robots.txt: crawl the public site, not the member areas; points to the sitemap.
import { robotsTxt } from "~/features/directory/sitemap";
import { getEnv } from "~/lib/env.server";
import { atEdge } from "~/lib/errors/http";

export const loader = atEdge(function loader() {
  return new Response(robotsTxt(getEnv().APP_URL), {
    headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "public, max-age=3600" },
  });
});
