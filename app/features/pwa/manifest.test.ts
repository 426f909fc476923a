import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { BACKGROUND_COLOR, shortName, THEME_COLOR, webAppManifest } from "./manifest";

describe("webAppManifest", () => {
  it("takes its colours from the design tokens of app/app.css", () => {
    const css = readFileSync("app/app.css", "utf8");
    expect(css).toContain(`--color-primary: ${THEME_COLOR};`);
    expect(css).toContain(`--color-background: ${BACKGROUND_COLOR};`);
  });

  it("is French, standalone, opens the member space, with 192, 512 and maskable PNG icons that exist", () => {
    const m = webAppManifest("Réseau Transmission");
    expect(m).toMatchObject({ name: "Réseau Transmission", lang: "fr", display: "standalone", start_url: "/dashboard", scope: "/" });
    const png = m.icons.filter((i) => i.type === "image/png");
    expect(png.map((i) => `${i.sizes} ${i.purpose}`)).toEqual(["192x192 any", "512x512 any", "512x512 maskable"]);
    for (const icon of m.icons) {
      const bytes = readFileSync(`public${icon.src}`);
      if (icon.type === "image/png") {
        // PNG signature, then the IHDR width and height.
        expect(bytes.subarray(1, 4).toString()).toBe("PNG");
        const [w] = icon.sizes.split("x").map(Number);
        expect([bytes.readUInt32BE(16), bytes.readUInt32BE(20)]).toEqual([w, w]);
      }
    }
  });

  it.each([
    ["Réseau Transmission", "RT"],
    ["Transmission", "Transmission"],
    ["Cédants", "Cédants"],
    ["Réseau-des-Cédants", "RDC"],
    ["Supercalifragilistique", "Supercalifra"],
  ])("short name of %s: %s", (name, expected) => {
    expect(shortName(name)).toBe(expected);
  });
});
