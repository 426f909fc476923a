// A lighter `createLucideIcon` for lucide-react's icon files (vite.config.ts swaps it in, in the
// browser and the server builds alike, so both render the same markup). lucide-react 1.x builds
// each icon through a context provider, an attribute-name mapper and alias handling that this app
// never uses: about 2 KB gzip on every page, a sixtieth of the public pages' JavaScript budget
// (`npm run lighthouse`). The SVG is the one lucide renders: same attributes, classes
// ("lucide lucide-<name> lucide-<alias> …"), stroke width rules and aria-hidden when nothing labels the icon
// (app/lib/lucide-icon.test.tsx compares the two on the icons and props the app uses).
import { createElement, forwardRef, type ReactNode, type SVGProps } from "react";

type IconNode = ReadonlyArray<readonly [tag: string, attrs: Record<string, string | number>]>;
interface IconData {
  name?: string;
  size?: number;
  aliases?: readonly string[];
  node: IconNode;
}

export interface LightIconProps extends Omit<SVGProps<SVGSVGElement>, "ref"> {
  size?: string | number;
  absoluteStrokeWidth?: boolean;
  nonScalingStroke?: boolean;
  children?: ReactNode;
}

function hasA11yProp(props: Record<string, unknown>): boolean {
  for (const prop in props) {
    if ((prop.startsWith("aria-") || prop === "role" || prop === "title") && props[prop] != null) return true;
  }
  return false;
}

function mergeClasses(...classes: Array<string | undefined>): string {
  const tokens = new Set<string>();
  for (const cls of classes) for (const token of (cls ?? "").split(/\s+/)) if (token) tokens.add(token);
  return [...tokens].join(" ");
}

export default function createLucideIcon(icon: IconData) {
  const viewBox = icon.size ?? 24;
  const iconClasses = [icon.name, ...(icon.aliases ?? [])].filter((n) => n && n.trim() !== "").map((n) => `lucide-${n}`);
  const Component = forwardRef<SVGSVGElement, LightIconProps>(function LucideIcon(
    { color, size, width, height, strokeWidth, absoluteStrokeWidth, nonScalingStroke, className = "", children, ...rest },
    ref,
  ) {
    const stroke = strokeWidth ?? 2;
    const scale = Number(width ?? size ?? 24);
    return createElement(
      "svg",
      {
        ref,
        xmlns: "http://www.w3.org/2000/svg",
        width: width ?? size ?? 24,
        height: height ?? size ?? 24,
        viewBox: `0 0 ${viewBox} ${viewBox}`,
        fill: "none",
        stroke: color ?? "currentColor",
        strokeWidth: absoluteStrokeWidth ? (Number(stroke) * viewBox) / scale : stroke,
        strokeLinecap: "round",
        strokeLinejoin: "round",
        className: mergeClasses("lucide", ...iconClasses, className),
        ...(Boolean(children) || hasA11yProp(rest) ? {} : { "aria-hidden": "true" }),
        ...rest,
      },
      ...icon.node.map(([tag, attrs]) => createElement(tag, nonScalingStroke ? { vectorEffect: "non-scaling-stroke", ...attrs } : attrs)),
      ...(Array.isArray(children) ? children : [children]),
    );
  });
  return Component;
}
