import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { productionServerArgs, serverNodeArgs } from "./server-args";

const root = path.resolve(import.meta.dirname, "../..");

describe("production server's Node options", () => {
  it("are read from the serve script", () => {
    expect(serverNodeArgs("NODE_ENV=production exec node --a=1 --b build/server.js")).toEqual(["--a=1", "--b"]);
    expect(() => serverNodeArgs("node --import tsx server.ts")).toThrow();
  });

  it("run the compiled server with no module hook (no tsx, no loader) and one V8 flag, the old generation's limit", () => {
    expect(productionServerArgs(root)).toEqual(["--max-old-space-size=512", "build/server.js"]);
  });

  it("are the same for `npm start`, after the build", () => {
    const pkg = JSON.parse(readFileSync(path.join(root, "package.json"), "utf8")) as { scripts: Record<string, string> };
    expect(pkg.scripts.start).toBe(`npm run build && ${pkg.scripts.serve}`);
  });
});
