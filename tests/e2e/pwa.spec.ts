// Installable on a phone (issue 31 §5): the manifest is linked and valid, the service worker
// registers (production build), the offline page shows when the server cannot be reached, and
// nothing private is kept by the worker.
import { expect } from "@playwright/test";
import { test } from "./typography-scan";
import { PREMIUM, signInAs } from "./fixtures";

test("manifest, icons, service worker and the offline page; no page kept", async ({ page, context }) => {
  await page.goto("/");
  const href = await page.locator('link[rel="manifest"]').getAttribute("href");
  expect(href).toBe("/manifest.webmanifest");
  const response = await page.request.get(href!);
  expect(response.status()).toBe(200);
  expect(response.headers()["content-type"]).toContain("application/manifest+json");
  const manifest = (await response.json()) as {
    name: string;
    short_name: string;
    lang: string;
    start_url: string;
    display: string;
    theme_color: string;
    icons: { src: string; sizes: string; type: string; purpose: string }[];
  };
  expect(manifest).toMatchObject({ name: "Réseau Transmission", lang: "fr", start_url: "/dashboard", display: "standalone", theme_color: "#1e3a8a" });
  expect(manifest.short_name.length).toBeLessThanOrEqual(12);
  const sizes = manifest.icons.filter((i) => i.type === "image/png").map((i) => `${i.sizes} ${i.purpose}`);
  expect(sizes).toEqual(expect.arrayContaining(["192x192 any", "512x512 any", "512x512 maskable"]));
  for (const icon of manifest.icons) {
    const res = await page.request.get(icon.src);
    expect(res.status(), icon.src).toBe(200);
    expect(res.headers()["content-type"], icon.src).toContain(icon.type);
  }
  await expect(page.locator('meta[name="theme-color"]')).toHaveAttribute("content", manifest.theme_color);

  // The worker registers and takes control of the page.
  const state = await page.evaluate(async () => (await navigator.serviceWorker.ready).active?.state);
  expect(state).toBe("activated");
  await expect.poll(() => page.evaluate(() => navigator.serviceWorker.controller !== null)).toBe(true);

  // A signed-in member's pages go through it and are never kept.
  await signInAs(page, PREMIUM.email);
  await page.goto("/dashboard/messages");
  await expect(page.getByRole("heading", { level: 2, name: "Messages" })).toBeVisible();
  const kept = await page.evaluate(async () => {
    const urls: string[] = [];
    for (const name of await caches.keys()) {
      for (const request of await (await caches.open(name)).keys()) urls.push(new URL(request.url).pathname);
    }
    return urls;
  });
  expect(kept).toContain("/hors-ligne.html");
  for (const path of kept) expect(path, path).toMatch(/^\/(hors-ligne\.html|favicon\.svg|icons\/[\w.-]+|assets\/[\w.-]+)$/);

  // The server cannot be reached: a navigation shows the offline page, not a kept copy.
  await context.setOffline(true);
  try {
    await page.goto("/dashboard/messages");
    await expect(page.getByRole("heading", { level: 1, name: "Vous êtes hors ligne" })).toBeVisible();
    await expect(page.getByText("ne sont jamais conservés sur cet appareil")).toBeVisible();
    await expect(page.getByRole("heading", { level: 2, name: "Messages" })).toHaveCount(0);
    await page.goto("/annuaire");
    await expect(page.getByRole("heading", { level: 1, name: "Vous êtes hors ligne" })).toBeVisible();
  } finally {
    await context.setOffline(false);
  }
  // Back online: the page itself again.
  await page.goto("/dashboard/messages");
  await expect(page.getByRole("heading", { level: 2, name: "Messages" })).toBeVisible();
});
