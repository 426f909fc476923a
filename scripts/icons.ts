// Renders the app icons of the web app manifest (issue 31 §5) from their SVG sources in
// public/icons with sharp (already a dependency): nothing is downloaded. Run after changing a
// source: `npx tsx scripts/icons.ts`; the PNGs are committed.
import path from "node:path";
import sharp from "sharp";

const dir = path.resolve("public/icons");

const OUTPUTS = [
  { source: "icon.svg", file: "icon-192.png", size: 192 },
  { source: "icon.svg", file: "icon-512.png", size: 512 },
  { source: "icon-maskable.svg", file: "icon-maskable-512.png", size: 512 },
  // iOS ignores the manifest's icons and rounds the corners itself: the full-bleed variant.
  { source: "icon-maskable.svg", file: "apple-touch-icon.png", size: 180 },
] as const;

for (const { source, file, size } of OUTPUTS) {
  await sharp(path.join(dir, source), { density: Math.ceil((72 * size) / 512) * 2 })
    .resize(size, size)
    .png({ compressionLevel: 9 })
    .toFile(path.join(dir, file));
  console.log(`public/icons/${file} (${size} × ${size})`);
}
