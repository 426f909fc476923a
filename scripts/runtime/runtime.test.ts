import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { productionServerArgs, serverNodeArgs } from "./server-args";

const root = path.resolve(import.meta.dirname, "../..");

describe("production server's Node options", () => {
  it("are read from the serve script", () => {
    expect(serverNodeArgs("NODE_ENV=production exec node --a=1 --import x server.ts")).toEqual(["--a=1", "--import", "x"]);
    expect(() => serverNodeArgs("tsx other.ts")).toThrow();
    const args = productionServerArgs(root);
    expect(args.at(-1)).toBe("server.ts");
    expect(args).toContain("--max-semi-space-size=64");
    expect(args.join(" ")).toContain("--import ./scripts/runtime/react-router-production.mjs --import tsx");
  });
});

describe("React Router's production files on the server (decision 024)", () => {
  const resolveWithHook = (code: string) =>
    execFileSync(process.execPath, ["--import", "./scripts/runtime/react-router-production.mjs", "--input-type=module", "-e", code], { cwd: root, encoding: "utf8" }).trim();

  it("resolves the package's entry points to dist/production, the other packages as they are", () => {
    const out = resolveWithHook(
      'for (const s of ["react-router", "react-router/dom", "@react-router/node", "react"]) console.log(import.meta.resolve(s));',
    ).split("\n");
    expect(out[0]).toMatch(/\/react-router\/dist\/production\/index\.mjs$/);
    expect(out[1]).toMatch(/\/react-router\/dist\/production\/dom-export\.mjs$/);
    expect(out[2]).toMatch(/\/@react-router\/node\/dist\/index\.mjs$/);
    expect(out[3]).toMatch(/\/react\/index\.js$/);
  });

  it("loads one copy, without the development warnings", () => {
    const out = resolveWithHook(
      'const rr = await import("react-router"); const express = await import("@react-router/express"); console.log(typeof rr.ServerRouter, typeof express.createRequestHandler);',
    );
    expect(out).toBe("function function");
    const entry = fileURLToPath(resolveWithHook('console.log(import.meta.resolve("react-router"))'));
    // The flag is defined in one of the chunks the entry imports.
    const chunks = [...readFileSync(entry, "utf8").matchAll(/from "\.\/(chunk-[\w-]+\.mjs)"/g)].map((m) => m[1]!);
    const definitions = chunks.map((c) => /var ENABLE_DEV_WARNINGS = (\w+);/.exec(readFileSync(path.join(path.dirname(entry), c), "utf8"))?.[1]).filter(Boolean);
    expect(definitions).toEqual(["false"]);
  });
});
