import path from "node:path";
import { describe, expect, it } from "vitest";
import { productionServerArgs, serverNodeArgs } from "./server-args";

const root = path.resolve(import.meta.dirname, "../..");

describe("production server's Node options", () => {
  it("are read from the serve script", () => {
    expect(serverNodeArgs("NODE_ENV=production exec node --a=1 --import x server.ts")).toEqual(["--a=1", "--import", "x"]);
    expect(() => serverNodeArgs("tsx other.ts")).toThrow();
  });

  it("run plain React Router: no module hook besides tsx (decision 037)", () => {
    expect(productionServerArgs(root)).toEqual(["--max-semi-space-size=64", "--import", "tsx", "server.ts"]);
  });
});
