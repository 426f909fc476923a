// `cn` (app/lib/utils.ts) resolves Tailwind overrides with a small table of groups instead of
// tailwind-merge (≈ 8 KB gzip kept out of the browser for the public pages' JavaScript budget).
// This test reads every `cn(…)` call of the app and every use, with a `className`, of a component
// that passes its `className` through `cn`, builds every combination of classes they can produce,
// and checks that `mergeClasses` gives exactly tailwind-merge's result (the oracle) for each.
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { extendTailwindMerge } from "tailwind-merge";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import { mergeClasses } from "./utils";

// The oracle knows the design system's own spacing and text tokens (app/app.css @theme), as
// Tailwind does when it builds the classes.
const theme = readFileSync(path.join(import.meta.dirname, "../app.css"), "utf8");
const tokens = (prefix: string) =>
  [...theme.matchAll(new RegExp(`--${prefix}-([a-z][a-z0-9-]*):`, "g"))].map((m) => m[1]!).filter((name) => !name.includes("--"));
const twMerge = extendTailwindMerge({ extend: { theme: { spacing: tokens("spacing"), text: tokens("text") } } });

const APP = path.resolve("app");

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) return sourceFiles(p);
    return /\.tsx?$/.test(e.name) && !/\.test\.tsx?$/.test(e.name) ? [p] : [];
  });
}

/** Every class string an expression can produce ("" for none); undefined when it cannot be known. */
function options(node: ts.Expression, cvas: Map<string, CvaDef>): string[] | undefined {
  if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) return [node.text];
  if (ts.isParenthesizedExpression(node)) return options(node.expression, cvas);
  if (ts.isTemplateExpression(node)) {
    let acc = [node.head.text];
    for (const span of node.templateSpans) {
      const o = options(span.expression, cvas) ?? [""];
      acc = acc.flatMap((a) => o.map((b) => `${a}${b}${span.literal.text}`));
    }
    return acc;
  }
  if (ts.isConditionalExpression(node)) {
    return [...(options(node.whenTrue, cvas) ?? [""]), ...(options(node.whenFalse, cvas) ?? [""])];
  }
  if (ts.isBinaryExpression(node) && (node.operatorToken.kind === ts.SyntaxKind.AmpersandAmpersandToken || node.operatorToken.kind === ts.SyntaxKind.BarBarToken)) {
    return ["", ...(options(node.right, cvas) ?? [""])];
  }
  if (ts.isCallExpression(node) && ts.isIdentifier(node.expression)) {
    const name = node.expression.text;
    if (name === "cn" || name === "clsx") return combine(node.arguments.map((a) => options(a, cvas) ?? [""]));
    const cva = cvas.get(name);
    if (cva) return cvaOptions(cva, undefined);
  }
  return undefined;
}

function combine(lists: string[][]): string[] {
  let acc = [""];
  for (const list of lists) acc = acc.flatMap((a) => list.map((b) => `${a} ${b}`));
  return acc.map((s) => s.trim());
}

type CvaDef = { base: string; variants: Record<string, Record<string, string>>; defaults: Record<string, string> };

function cvaOptions(def: CvaDef, props: Record<string, string> | undefined): string[] {
  const lists = Object.entries(def.variants).map(([group, values]) => {
    const chosen = props?.[group] ?? (props ? def.defaults[group] : undefined);
    return chosen !== undefined && values[chosen] !== undefined ? [values[chosen]] : Object.values(values);
  });
  return combine([[def.base], ...lists]);
}

function readCva(call: ts.CallExpression): CvaDef | undefined {
  const [base, config] = call.arguments;
  if (!base || !ts.isStringLiteral(base)) return undefined;
  const def: CvaDef = { base: base.text, variants: {}, defaults: {} };
  if (config && ts.isObjectLiteralExpression(config)) {
    for (const prop of config.properties) {
      if (!ts.isPropertyAssignment(prop) || !ts.isObjectLiteralExpression(prop.initializer)) continue;
      const key = prop.name.getText();
      for (const group of prop.initializer.properties) {
        if (!ts.isPropertyAssignment(group)) continue;
        const gname = group.name.getText().replace(/["']/g, "");
        if (key === "variants" && ts.isObjectLiteralExpression(group.initializer)) {
          def.variants[gname] = {};
          for (const v of group.initializer.properties) {
            if (ts.isPropertyAssignment(v) && ts.isStringLiteral(v.initializer)) def.variants[gname][v.name.getText().replace(/["']/g, "")] = v.initializer.text;
          }
        } else if (key === "defaultVariants" && ts.isStringLiteral(group.initializer)) {
          def.defaults[gname] = group.initializer.text;
        }
      }
    }
  }
  return def;
}

/** A difference between our merge and tailwind-merge's for these classes. */
function conflict(classes: string): string | undefined {
  const expected = twMerge(classes);
  const actual = mergeClasses(classes);
  return actual === expected ? undefined : `"${classes}": cn gives "${actual}", tailwind-merge "${expected}"`;
}

type Component = { file: string; base: string[]; cva?: CvaDef };

function analyse() {
  const files = sourceFiles(APP).map((f) => ({ file: f, sf: ts.createSourceFile(f, readFileSync(f, "utf8"), ts.ScriptTarget.Latest, true, ts.ScriptKind.TSX) }));
  const cvas = new Map<string, CvaDef>();
  for (const { sf } of files) {
    sf.forEachChild(function visit(node): void {
      if (ts.isVariableDeclaration(node) && ts.isIdentifier(node.name) && node.initializer && ts.isCallExpression(node.initializer) && node.initializer.expression.getText() === "cva") {
        const def = readCva(node.initializer);
        if (def) cvas.set(node.name.text, def);
      }
      node.forEachChild(visit);
    });
  }
  // Components passing `className` to cn: their own classes, per combination.
  const components = new Map<string, Component>();
  const problems: string[] = [];
  let combinations = 0;
  const where = (sf: ts.SourceFile, node: ts.Node) => `${path.relative(APP, sf.fileName)}:${sf.getLineAndCharacterOfPosition(node.getStart()).line + 1}`;
  for (const { file, sf } of files) {
    sf.forEachChild(function visit(node): void {
      if (ts.isCallExpression(node) && ts.isIdentifier(node.expression) && node.expression.text === "cn") {
        const own = node.arguments.filter((a) => a.getText() !== "className");
        const cvaCall = own.find((a): a is ts.CallExpression => ts.isCallExpression(a) && ts.isIdentifier(a.expression) && cvas.has(a.expression.text));
        const lists = own.filter((a) => a !== cvaCall).map((a) => options(a, cvas) ?? [""]);
        const cva = cvaCall ? cvas.get((cvaCall.expression as ts.Identifier).text) : undefined;
        const base = combine(cva ? [cvaOptions(cva, undefined), ...lists] : lists);
        for (const combo of base) {
          combinations++;
          const c = conflict(combo);
          if (c) problems.push(`${where(sf, node)} ${c}`);
        }
        const takesClassName = node.arguments.some((a) => a.getText() === "className") || (cvaCall?.arguments[0]?.getText().includes("className") ?? false);
        if (takesClassName) {
          let fn: ts.Node | undefined = node.parent;
          while (fn && !ts.isFunctionDeclaration(fn) && !(ts.isVariableDeclaration(fn) && fn.initializer && ts.isArrowFunction(fn.initializer))) fn = fn.parent;
          const name = fn && (ts.isFunctionDeclaration(fn) ? fn.name?.text : (fn as ts.VariableDeclaration).name.getText());
          if (name) components.set(name, { file, base: combine(lists), cva });
        }
      }
      node.forEachChild(visit);
    });
  }
  // Every use of those components with a className.
  let uses = 0;
  for (const { sf } of files) {
    sf.forEachChild(function visit(node): void {
      if (ts.isJsxSelfClosingElement(node) || ts.isJsxOpeningElement(node)) {
        const comp = components.get(node.tagName.getText());
        const attrs = node.attributes.properties.filter(ts.isJsxAttribute);
        const classAttr = attrs.find((a) => a.name.getText() === "className");
        if (comp && classAttr?.initializer) {
          uses++;
          const init = classAttr.initializer;
          const expr = ts.isStringLiteral(init) ? init : ts.isJsxExpression(init) ? init.expression : undefined;
          const theirs = (expr && options(expr, cvas)) ?? [""];
          const props: Record<string, string> = {};
          for (const a of attrs) if (a.initializer && ts.isStringLiteral(a.initializer)) props[a.name.getText()] = a.initializer.text;
          const own = comp.cva ? combine([cvaOptions(comp.cva, props), comp.base]) : comp.base;
          for (const combo of combine([own, theirs])) {
            combinations++;
            const c = conflict(combo);
            if (c) problems.push(`${where(sf, node)} <${node.tagName.getText()}> ${c}`);
          }
        }
      }
      node.forEachChild(visit);
    });
  }
  return { components, uses, combinations, problems: [...new Set(problems)] };
}

describe("mergeClasses", () => {
  it.each([
    ["h-10 px-4 h-auto", "px-4 h-auto"],
    ["p-6 pt-0 p-4", "p-4"],
    ["p-6 pt-0", "p-6 pt-0"],
    ["text-sm text-muted-foreground text-base text-foreground", "text-base text-foreground"],
    ["text-3xl md:text-4xl text-2xl md:text-3xl", "text-2xl md:text-3xl"],
    ["border border-input border-2 border-primary", "border-2 border-primary"],
    ["flex flex-col hidden", "flex-col hidden"],
    ["border border-l-4", "border border-l-4"],
    ["border-l-4 border", "border"],
    ["[&_svg]:size-4 [&_svg]:size-5 focus-visible:outline-2", "[&_svg]:size-5 focus-visible:outline-2"],
    ["mt-6 grid gap-6 sm:grid-cols-2", "mt-6 grid gap-6 sm:grid-cols-2"],
  ])("%s → %s, as tailwind-merge", (input, expected) => {
    expect(mergeClasses(input)).toBe(expected);
    expect(twMerge(input)).toBe(expected);
  });
});

describe("class names passed through cn", () => {
  const { components, uses, combinations, problems } = analyse();

  it("finds the components and their uses", () => {
    for (const name of ["Button", "Badge", "Card", "Input", "PageContainer", "PageTitle"]) expect(components.has(name)).toBe(true);
    expect(uses).toBeGreaterThan(50);
    expect(combinations).toBeGreaterThan(200);
  });

  it("are merged as tailwind-merge merges them, in every combination the code can produce", () => {
    expect(problems).toEqual([]);
  });
});
