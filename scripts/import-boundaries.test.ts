// The import-boundaries rule of `npm run lint` (eslint/boundaries.js), run through ESLint's Node
// API on small sources placed in real folders: each upward import must fail, each downward one pass.
import { ESLint } from "eslint";
import path from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = path.resolve(import.meta.dirname, "..");
const eslint = new ESLint({ cwd: ROOT });

async function boundaryErrors(file: string, source: string): Promise<string[]> {
  const [result] = await eslint.lintText(source, { filePath: path.join(ROOT, file) });
  return result.messages.filter((m) => m.ruleId === "boundaries/dependencies").map((m) => m.message);
}

describe("import boundaries", () => {
  it.each([
    ["a feature importing a feature above it", "app/features/mandates/fixture.ts", 'export { pairKey } from "~/features/connections/connection-rules";'],
    ["the reverse edge that would close a cycle", "app/features/mandates/fixture.ts", 'export { matchScore } from "~/features/matching/match-score";'],
    ["lib importing a feature", "app/lib/fixture.ts", 'export { isMatchable } from "~/features/mandates/mandate-rules";'],
    ["a feature importing a route module", "app/features/mandates/fixture.ts", 'export { loadMandatesPage } from "~/routes/member/mandates-page.server";'],
    ["a shared component importing a feature", "app/components/fixture.tsx", 'export { isMatchable } from "~/features/mandates/mandate-rules";'],
    ["db importing auth", "app/db/fixture.ts", 'export { memberActor } from "~/auth/actor";'],
    ["a relative path up into another feature", "app/features/trust/fixture.ts", 'export { pairKey } from "../connections/connection-rules";'],
  ])("fails on %s", async (_, file, source) => {
    expect(await boundaryErrors(file, source)).toHaveLength(1);
  }, 60_000);

  it.each([
    ["a feature importing a feature below it", "app/features/matching/fixture.ts", 'export { isMatchable } from "~/features/mandates/mandate-rules";'],
    ["a feature importing lib", "app/features/mandates/fixture.ts", 'export { isUuid } from "~/lib/uuid";'],
    ["a route importing a feature", "app/routes/member/fixture.ts", 'export { isMatchable } from "~/features/mandates/mandate-rules";'],
  ])("passes %s", async (_, file, source) => {
    expect(await boundaryErrors(file, source)).toEqual([]);
  }, 60_000);
});
