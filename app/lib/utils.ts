import { clsx, type ClassValue } from "clsx";

// `cn` joins class names and, like tailwind-merge, drops a class when a later one sets the same
// thing (`h-10 … h-auto` keeps `h-auto`), so that a component's `className` overrides its defaults.
// tailwind-merge itself is ≈ 8 KB gzip in every page, a fifteenth of the public pages'
// JavaScript budget (`npm run lighthouse`): this is the same rule for the groups of utilities the
// app's components meet. app/lib/class-merge.test.ts checks it gives tailwind-merge's result for
// every combination of classes the code can pass to `cn`, so a new kind of override fails there.

const SIZES = "xs|sm|base|lg|xl|[2-9]xl";
const SIDES = "[xytrblse]";
const GROUPS: ReadonlyArray<readonly [group: string, test: RegExp]> = [
  ["display", /^(block|inline-block|inline|flex|inline-flex|grid|inline-grid|hidden|contents|table|flow-root)$/],
  ["position", /^(static|fixed|absolute|relative|sticky)$/],
  ["flex-direction", /^flex-(row|col)(-reverse)?$/],
  ["flex-wrap", /^flex-(wrap|nowrap|wrap-reverse)$/],
  ["items", /^items-(start|end|center|baseline|stretch)$/],
  ["justify", /^justify-(start|end|center|between|around|evenly|stretch|normal)$/],
  ["gap", /^gap-/],
  ["gap-x", /^gap-x-/],
  ["gap-y", /^gap-y-/],
  ["whitespace", /^whitespace-/],
  ["text-align", /^text-(left|center|right|justify|start|end)$/],
  // The design system's text sizes (app/app.css @theme) are sizes, not colours.
  ["font-size", new RegExp(`^text-(${SIZES}|caption|body|section|page|display)(/.+)?$`)],
  ["text-color", /^text-(?!(left|center|right|justify|start|end|wrap|nowrap|balance|pretty|ellipsis|clip)$)[a-z]/],
  ["font-weight", /^font-(thin|extralight|light|normal|medium|semibold|bold|extrabold|black)$/],
  ["leading", /^leading-/],
  ["tracking", /^tracking-/],
  ["bg-color", /^bg-(?!(fixed|local|scroll|clip-.*|origin-.*|none|gradient-.*|linear-.*|radial.*|conic.*|repeat.*|no-repeat|cover|contain|auto|center|top|bottom|left|right)$)[a-z]/],
  ["border-w", /^border(-\d+)?$/],
  ...["x", "y", "t", "r", "b", "l", "s", "e"].map((side) => [`border-w-${side}`, new RegExp(`^border-${side}(-\\d+)?$`)] as const),
  ["border-style", /^border-(solid|dashed|dotted|double|hidden|none)$/],
  ["border-color", new RegExp(`^border-(?!(${SIDES}|\\d+|${SIDES}-\\d+|solid|dashed|dotted|double|hidden|none|collapse|separate|spacing.*)$)[a-z]`)],
  ["rounded", new RegExp(`^rounded(-(none|${SIZES}|full))?$`)],
  ["shadow", /^shadow(-(2xs|xs|sm|md|lg|xl|2xl|none|inner))?$/],
  ["opacity", /^opacity-/],
  ["cursor", /^cursor-/],
  ...["p", "px", "py", "pt", "pr", "pb", "pl", "ps", "pe", "m", "mx", "my", "mt", "mr", "mb", "ml", "ms", "me"].map((g) => [g, new RegExp(`^-?${g}-`)] as const),
  ["w", /^w-/],
  ["min-w", /^min-w-/],
  ["max-w", /^max-w-/],
  ["h", /^h-/],
  ["min-h", /^min-h-/],
  ["max-h", /^max-h-/],
  ["size", /^size-/],
];

/** A later class of the first group also removes earlier classes of these groups. */
const OVERRIDES: Readonly<Record<string, readonly string[]>> = {
  // As in tailwind-merge 3: a text size sets its own line height.
  "font-size": ["leading"],
  p: ["px", "py", "pt", "pr", "pb", "pl", "ps", "pe"],
  px: ["pr", "pl", "ps", "pe"],
  py: ["pt", "pb"],
  m: ["mx", "my", "mt", "mr", "mb", "ml", "ms", "me"],
  mx: ["mr", "ml", "ms", "me"],
  my: ["mt", "mb"],
  gap: ["gap-x", "gap-y"],
  size: ["w", "h"],
  "border-w": ["x", "y", "t", "r", "b", "l", "s", "e"].map((side) => `border-w-${side}`),
  "border-w-x": ["border-w-r", "border-w-l"],
  "border-w-y": ["border-w-t", "border-w-b"],
};

function groupOf(utility: string): string | undefined {
  for (const [group, test] of GROUPS) if (test.test(utility)) return group;
  return undefined;
}

// Components pass the same few hundred class strings on every render, and merging them
// showed in a signed-in page's server CPU: merged once, then looked up. Bounded: emptied when full.
const MERGED_MAX = 2000;
const merged = new Map<string, string>();

/** Keeps, for each group of utilities and variant prefix (`md:`, `hover:`…), the last class only. */
export function mergeClasses(classes: string): string {
  let out = merged.get(classes);
  if (out === undefined) {
    out = mergeUncached(classes);
    if (merged.size >= MERGED_MAX) merged.clear();
    merged.set(classes, out);
  }
  return out;
}

function mergeUncached(classes: string): string {
  const list = classes.split(/\s+/).filter(Boolean);
  const taken = new Set<string>();
  const kept: string[] = [];
  for (let i = list.length - 1; i >= 0; i--) {
    const cls = list[i]!;
    // Variants are everything up to the last colon outside brackets (`[&_svg]:size-4`, `md:p-6`).
    let depth = 0;
    let split = -1;
    for (let j = 0; j < cls.length; j++) {
      const ch = cls[j];
      if (ch === "[") depth++;
      else if (ch === "]") depth--;
      else if (ch === ":" && depth === 0) split = j;
    }
    const prefix = cls.slice(0, split + 1);
    const important = cls[split + 1] === "!" ? "!" : "";
    const utility = cls.slice(split + 1 + important.length);
    const group = groupOf(utility);
    const key = group ? `${prefix}${important}${group}` : `${prefix}${important}=${utility}`;
    if (taken.has(key)) continue;
    taken.add(key);
    for (const other of (group && OVERRIDES[group]) || []) taken.add(`${prefix}${important}${other}`);
    kept.push(cls);
  }
  return kept.reverse().join(" ");
}

export function cn(...inputs: ClassValue[]) {
  return mergeClasses(clsx(inputs));
}
