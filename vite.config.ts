import { reactRouter } from "@react-router/dev/vite";
import tailwindcss from "@tailwindcss/vite";
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { defineConfig, type Plugin } from "vite";

/** In the browser build, `zod` is app/lib/zod-client.ts (French messages, no JIT probe that the CSP reports). */
function zodClient(): Plugin {
  const target = path.resolve("app/lib/zod-client.ts");
  return {
    name: "zod-client",
    enforce: "pre",
    applyToEnvironment: (environment) => environment.name === "client",
    resolveId(source, importer) {
      if (source !== "zod" || !importer || path.resolve(importer.split("?")[0]!) === target) return null;
      return target;
    },
  };
}

/** Modules of the shell chunk: what the root layout and every public page use. */
const SHELL = [
  /app[\\/]components[\\/](site-header|site-footer|lazy-toaster|page)\.tsx$/,
  /app[\\/]components[\\/]ui[\\/](button|slot|card|badge)\.tsx$/,
  /app[\\/]lib[\\/](utils|toast|text|meta|request-context)\.tsx?$/,
  /node_modules[\\/](clsx|class-variance-authority)[\\/]/,
  /node_modules[\\/]lucide-react[\\/]dist[\\/]esm[\\/](Icon|createLucideIcon|defaultAttributes|context|shared[\\/].*)\.m?js$/,
  /vite[\\/]preload-helper/,
];

/**
 * What the directory's cards and the profile page share: the avatar, the badges and the company
 * icon (Building2, an alias of building-complex: not caught by PUBLIC_ICONS' names).
 */
const PROFILE_CARD = [
  /app[\\/]components[\\/]avatar\.tsx$/,
  /app[\\/]features[\\/]directory[\\/](badges\.ts|components[\\/]profile-badges\.tsx)$/,
  /lucide-react[\\/]dist[\\/]esm[\\/]icons[\\/]building-complex\.m?js$/,
];

/**
 * The lucide icons the public pages import, read from their sources so that the groups follow the
 * pages: the landing page's own icons in one file, the others in the shell.
 */
const PUBLIC_ICONS = (() => {
  const landing = "app/routes/public/landing.tsx";
  const files = [
    landing,
    ...["annuaire", "consultant"].map((r) => `app/routes/public/${r}.tsx`),
    ...["app/components", "app/features/directory/components"].flatMap((dir) => readdirSync(dir).filter((f) => f.endsWith(".tsx")).map((f) => `${dir}/${f}`)),
  ];
  const byFile = new Map<string, Set<string>>();
  for (const file of files) {
    const icons = new Set<string>();
    for (const m of readFileSync(file, "utf8").matchAll(/import\s*\{([^}]*)\}\s*from\s*"lucide-react"/g)) {
      for (const raw of m[1]!.split(",")) {
        const name = raw.trim();
        // lucide's file names: ArrowRight → arrow-right, Building2 → building-2.
        if (/^[A-Z]/.test(name)) icons.add(name.replace(/([a-z])([A-Z0-9])/g, "$1-$2").toLowerCase());
      }
    }
    byFile.set(file, icons);
  }
  const shared = new Set([...byFile].filter(([file]) => file !== landing).flatMap(([, icons]) => [...icons]));
  return { shared, landing: new Set([...byFile.get(landing)!].filter((icon) => !shared.has(icon))) };
})();

function isIcon(id: string, names: Set<string>): boolean {
  const m = /lucide-react[\\/]dist[\\/]esm[\\/]icons[\\/]([a-z0-9-]+)\.m?js$/.exec(id);
  return m !== null && names.has(m[1]!);
}

export default defineConfig({
  plugins: [zodClient(), tailwindcss(), reactRouter()],
  resolve: { tsconfigPaths: true },
  build: { sourcemap: false },
  environments: {
    client: {
      build: {
        rolldownOptions: {
          output: {
            // Fewer, larger files for the public pages (front-end budget, `npm run lighthouse`):
            // each small file costs a request and its own gzip overhead.
            codeSplitting: {
              groups: [
                // React, React DOM and React Router: one file, loaded by every page.
                { name: "framework", test: /node_modules[\\/](react|react-dom|scheduler|react-router)[\\/]/, priority: 20 },
                // The shell every page loads (header, footer, ui primitives, the public pages' icons).
                { name: "shell", test: (id) => SHELL.some((re) => re.test(id)) || isIcon(id, PUBLIC_ICONS.shared), priority: 10 },
                // /annuaire and /consultant: their shared card parts in one file rather than two.
                { name: "profile-card", test: (id) => PROFILE_CARD.some((re) => re.test(id)), priority: 10 },
                // The landing page's own icons: one file rather than one each.
                { name: "landing-icons", test: (id) => isIcon(id, PUBLIC_ICONS.landing), priority: 10 },
              ],
            },
          },
        },
      },
    },
  },
  ssr: {
    // Native or server-only packages stay external to the server bundle.
    external: ["@electric-sql/pglite", "@node-rs/argon2", "sharp", "pg", "pino", "nodemailer"],
  },
});
