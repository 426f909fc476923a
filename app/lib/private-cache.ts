// Cache-Control of private responses. Pure: app/lib/private-responses.server.ts
// applies it to every response of the server.
//
// A response to a signed-in request (one carrying the session cookie), or one that sets a
// cookie, is for that browser only: no shared cache may keep it, and the browser keeps nothing
// on disk either (`private, no-store`), unless the response already asks to be revalidated each
// time (`no-cache`, a validator in use, e.g. the notification stream), which only gains
// `private`. A response that declares itself `public` (profile images, robots.txt, sitemap: the
// same bytes for everyone) keeps its own rule, unless it sets a cookie.

/** The directive names of a Cache-Control value, lower-cased. */
function directives(value: string): Set<string> {
  return new Set(
    value
      .split(",")
      .map((d) => d.split("=")[0]!.trim().toLowerCase())
      .filter(Boolean),
  );
}

export type PrivateCacheInput = {
  /** The response's Cache-Control as the route set it, if any. */
  current: string | null;
  /** The request carries the session cookie. */
  signedIn: boolean;
  /** The response sets a cookie. */
  setsCookie: boolean;
};

/** The Cache-Control the response must carry (null: leave it without one). */
export function privateCacheControl({ current, signedIn, setsCookie }: PrivateCacheInput): string | null {
  if (!signedIn && !setsCookie) return current;
  const given = directives(current ?? "");
  if (given.has("public") && !setsCookie) return current;
  if (given.has("no-store") || given.has("no-cache")) {
    const rest = (current ?? "")
      .split(",")
      .map((d) => d.trim())
      .filter((d) => d && !/^(public|private)$/i.test(d.split("=")[0]!.trim()));
    return ["private", ...rest].join(", ");
  }
  return "private, no-store";
}
