// Import boundaries (DESIGN §3, decision 063): the layers of app/ and the order of the features.
// A layer imports only the layers below it; a feature imports only features listed before it,
// so a cycle between feature folders cannot be written without a lint error.
import path from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

/** Features from the bottom up: each may import only those before it. */
export const FEATURE_ORDER = [
  "notifications",
  "deals",
  "recommendations",
  "pwa",
  "contact",
  "account",
  "mandates",
  "matching",
  "trust",
  "directory",
  "profiles",
  "internal-directory",
  "onboarding",
  "membership",
  "billing",
  "connections",
  "collaboration",
  "messages",
  "mediation",
  "due-diligence",
  "overview",
  "admin",
];

/**
 * Upward imports that predate the rule, each a file and the feature it reaches up to. The list
 * only shrinks: moving the shared piece down removes the line.
 */
export const KNOWN_UPWARD = [
  ["app/features/collaboration/collaboration.server.ts", "messages"],
  ["app/features/connections/connections.server.ts", "collaboration"],
  ["app/features/membership/membership.server.ts", "billing"],
  ["app/features/membership/refunds.server.ts", "billing"],
  ["app/features/trust/ratings.server.ts", "collaboration"],
  ["app/features/trust/verification.server.ts", "collaboration"],
];

const elements = [
  { type: "app", pattern: "app/*.{ts,tsx}", partialMatch: false },
  { type: "routes", pattern: "app/routes" },
  { type: "feature", pattern: "app/features/*", capture: ["name"] },
  { type: "components", pattern: "app/components" },
  { type: "auth", pattern: "app/auth" },
  { type: "lib", pattern: "app/lib" },
  { type: "db", pattern: "app/db" },
];

const to = (...types) => ({ to: { element: { types: { anyOf: types } } } });
const feature = (names) => ({ element: { type: "feature", captured: { name: names } } });

const policies = [
  { from: { element: { type: "app" } }, allow: to("app", "routes", "feature", "components", "auth", "lib", "db") },
  { from: { element: { type: "routes" } }, allow: to("routes", "feature", "components", "auth", "lib", "db") },
  { from: { element: { type: "feature" } }, allow: to("components", "auth", "lib", "db") },
  { from: { element: { type: "components" } }, allow: to("components", "lib", "db") },
  { from: { element: { type: "auth" } }, allow: to("auth", "components", "lib", "db") },
  { from: { element: { type: "lib" } }, allow: to("lib", "db") },
  { from: { element: { type: "db" } }, allow: to("db", "lib") },
  // A feature reaches its own folder and the features before it in FEATURE_ORDER.
  ...FEATURE_ORDER.map((name, i) => ({
    from: feature(name),
    allow: { to: feature(FEATURE_ORDER.slice(0, i + 1)) },
  })),
];

const rule = (extra = []) => ["error", { default: "disallow", policies: [...policies, ...extra] }];

export function boundariesConfig(plugin) {
  return [
    {
      files: ["app/**/*.ts", "app/**/*.tsx"],
      ignores: ["app/**/*.test.ts", "app/**/*.test.tsx"],
      plugins: { boundaries: plugin },
      settings: {
        "boundaries/elements": elements,
        "boundaries/root-path": ROOT,
        "import/resolver": { [path.join(ROOT, "eslint/alias-resolver.cjs")]: {} },
      },
      rules: { "boundaries/dependencies": rule() },
    },
    // Each known upward import is allowed in its one file only.
    ...KNOWN_UPWARD.map(([file, target]) => ({
      files: [file],
      rules: { "boundaries/dependencies": rule([{ from: { element: { type: "feature" } }, allow: { to: feature([target]) } }]) },
    })),
  ];
}
