// The overview's last visit, per member and browser: a cookie, so it is kept at the route edge.
import { createCookie } from "react-router";
import { formatVisit, nextVisit, parseVisit } from "~/features/overview/overview-rules";
import { getEnv } from "~/lib/env.server";

const visitCookie = createCookie("rt_apercu", { path: "/dashboard", httpOnly: true, sameSite: "lax", maxAge: 60 * 60 * 24 * 365 });

/** The visit this view of the overview belongs to, and the Set-Cookie header that records it. */
export async function overviewVisit(request: Request, profileId: string, now = Date.now()): Promise<{ since: Date; setCookie: string }> {
  const raw: unknown = await visitCookie.parse(request.headers.get("cookie")).catch(() => null);
  const visit = nextVisit(parseVisit(typeof raw === "string" ? raw : null, profileId), profileId, now);
  const secure = getEnv().APP_URL.startsWith("https://");
  return { since: new Date(visit.since), setCookie: await visitCookie.serialize(formatVisit(visit), { secure }) };
}
