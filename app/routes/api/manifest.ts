// /manifest.webmanifest: the web app manifest, named after APP_NAME.
import { webAppManifest } from "~/features/pwa/manifest";
import { getEnv } from "~/lib/env.server";
import { atEdge } from "~/lib/errors/http";

export const loader = atEdge(function loader() {
  return new Response(JSON.stringify(webAppManifest(getEnv().APP_NAME)), {
    headers: { "Content-Type": "application/manifest+json; charset=utf-8", "Cache-Control": "public, max-age=3600" },
  });
});
