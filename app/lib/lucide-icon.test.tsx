import type { ComponentType } from "react";
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import createLightIcon, { type LightIconProps } from "./lucide-icon";

// vite.config.ts builds lucide's icons with app/lib/lucide-icon.ts: the markup must be lucide's
// own, or the server and the browser would disagree with what the tests and the CSS expect.
const ICONS = ["clock", "triangle-exclamation-point", "building-complex", "shield-check", "star", "x"];
const PROPS: Array<[string, LightIconProps]> = [
  ["no props", {}],
  ["a class", { className: "h-4 w-4 shrink-0" }],
  ["a repeated class", { className: "lucide h-4  h-4" }],
  ["a label", { "aria-label": "Étoile" }],
  ["role and title", { role: "img" }],
  ["aria-hidden given", { "aria-hidden": true }],
  ["a size", { size: 16 }],
  ["width and height", { width: 20, height: 12 }],
  ["a stroke width", { strokeWidth: 1.5 }],
  ["absolute stroke width", { absoluteStrokeWidth: true, size: 48 }],
  ["non-scaling stroke", { nonScalingStroke: true }],
  ["a colour", { color: "red" }],
  ["a data attribute", { "data-testid": "icône" } as LightIconProps],
  ["a child", { children: createElement("title", null, "Horloge") }],
];

describe("light lucide icons render lucide's markup", () => {
  for (const name of ICONS) {
    for (const [label, props] of PROPS) {
      it(`${name}, ${label}`, async () => {
        const mod = (await import(`../../node_modules/lucide-react/dist/esm/icons/${name}.mjs`)) as {
          default: ComponentType<LightIconProps>;
          __iconData: Parameters<typeof createLightIcon>[0];
        };
        const Light = createLightIcon(mod.__iconData);
        expect(renderToStaticMarkup(createElement(Light, props))).toBe(renderToStaticMarkup(createElement(mod.default, props)));
      });
    }
  }
});
