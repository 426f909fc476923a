// When React Router asks a frame's loader again on the client (a route's `shouldRevalidate`).
import type { ShouldRevalidateFunctionArgs } from "react-router";

/**
 * For a frame whose data depends on the signed-in user only (the application's frame, a guard
 * layout): a GET navigation to another URL — a link, a search, a filter — keeps what it has; a
 * form submission or an explicit revalidation reads it again, as React Router's default would.
 * The bell of the frame stays current through its live stream meanwhile.
 */
export function keepFrameOnNavigation({ formMethod, currentUrl, nextUrl, defaultShouldRevalidate }: ShouldRevalidateFunctionArgs): boolean {
  const submission = formMethod !== undefined && formMethod.toUpperCase() !== "GET";
  if (!submission && currentUrl.href !== nextUrl.href) return false;
  return defaultShouldRevalidate;
}
