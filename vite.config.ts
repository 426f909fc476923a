import { reactRouter } from "@react-router/dev/vite";
import tailwindcss from "@tailwindcss/vite";
import { readdirSync, readFileSync, realpathSync } from "node:fs";
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

/**
 * React Router's production build in the browser. Its package exports name only
 * `dist/development` (remix-run/react-router#14102), whose one difference is
 * `ENABLE_DEV_WARNINGS = true`: development warnings in the members' browsers and their code in
 * every page's JavaScript. The production files are the same modules with the flag off. Browser
 * build only: on the server, @react-router/node and express load react-router through Node, and
 * one process must hold one copy of it.
 */
function reactRouterProduction(): Plugin {
  const dist = realpathSync(path.resolve("node_modules/react-router/dist/production"));
  const files: Record<string, string> = { "react-router": "index.mjs", "react-router/dom": "dom-export.mjs" };
  return {
    name: "react-router-production",
    enforce: "pre",
    applyToEnvironment: (environment) => environment.name === "client",
    resolveId(source) {
      const file = files[source];
      return file ? path.join(dist, file) : null;
    },
  };
}

/**
 * lucide-react's icons built by app/lib/lucide-icon.ts rather than by lucide's own runtime (same
 * markup, about 2 KB gzip less on every page), in the browser and the server builds alike.
 */
function lightLucide(): Plugin {
  const target = path.resolve("app/lib/lucide-icon.ts");
  return {
    name: "light-lucide",
    enforce: "pre",
    resolveId(source, importer) {
      if (source !== "../createLucideIcon.mjs" || !importer || !/lucide-react[\\/]dist[\\/]esm[\\/]icons[\\/]/.test(importer)) return null;
      return target;
    },
  };
}

/**
 * The PDF worker thread (app/lib/untrusted/pdf-worker.ts) as a file of its own in the server
 * build, next to index.js, where the pool looks for it (decision 034): a worker needs an entry
 * file, and the bundle has no sources to point at.
 */
function untrustedPdfWorker(): Plugin {
  return {
    name: "untrusted-pdf-worker",
    apply: "build",
    applyToEnvironment: (environment) => environment.name === "ssr",
    buildStart() {
      // The name the pool looks for: PDF_WORKER_BUILD_FILE in app/lib/untrusted/pdf-protocol.ts.
      this.emitFile({ type: "chunk", id: path.resolve("app/lib/untrusted/pdf-worker.ts"), fileName: "untrusted-pdf-worker.js" });
    },
  };
}

/** Modules of the shell chunk: what the root layout and every public page use. */
const SHELL = [
  /app[\\/]components[\\/](site-header|site-footer|lazy-toaster|page|app-shell[\\/]shell-data)\.tsx?$/,
  /app[\\/]components[\\/]ui[\\/](button|slot|card|badge)\.tsx$/,
  /app[\\/]lib[\\/](utils|toast|text|meta|request-context|lucide-icon)\.tsx?$/,
  /node_modules[\\/](clsx|class-variance-authority)[\\/]/,
  /node_modules[\\/]lucide-react[\\/]dist[\\/]esm[\\/](Icon|createLucideIcon|defaultAttributes|context|shared[\\/].*)\.m?js$/,
  /vite[\\/]preload-helper/,
];

/**
 * What the directory's cards and the profile page share: the avatar, the badges and their rules,
 * the verified mark, the text input of the directory's search and of the contact form.
 */
const PROFILE_CARD = [
  /app[\\/]components[\\/](avatar\.tsx|ui[\\/]input\.tsx)$/,
  /app[\\/]lib[\\/](avatar-colour|use-hydrated)\.ts$/,
  /app[\\/]features[\\/]directory[\\/](badges\.ts|components[\\/]profile-badges\.tsx)$/,
  /app[\\/]features[\\/]trust[\\/](reputation-labels\.ts|components[\\/]verified-mark\.tsx)$/,
];

/** lucide-react's export names (aliases included: AlertTriangle, Building2…) → icon file names. */
const LUCIDE_FILES = (() => {
  const index = readFileSync("node_modules/lucide-react/dist/esm/lucide-react.mjs", "utf8");
  const files = new Map<string, string>();
  for (const m of index.matchAll(/export \{([^}]*)\} from '\.\/icons\/([a-z0-9-]+)\.mjs'/g)) {
    for (const part of m[1]!.split(",")) {
      const name = /as\s+(\w+)/.exec(part)?.[1];
      if (name) files.set(name, m[2]!);
    }
  }
  return files;
})();

function iconsOf(file: string): Set<string> {
  const icons = new Set<string>();
  for (const m of readFileSync(file, "utf8").matchAll(/import\s*\{([^}]*)\}\s*from\s*"lucide-react"/g)) {
    for (const raw of m[1]!.split(",")) {
      const icon = LUCIDE_FILES.get(raw.trim());
      if (icon) icons.add(icon);
    }
  }
  return icons;
}

/**
 * The lucide icons of the public pages, read from their sources so that the groups follow the
 * pages: the shell's own (every page), the profile card's (directory and profiles), and the
 * landing page's (one file rather than one each). An icon of the landing page that the directory
 * or the profile page also uses goes to the shell; the profile page's own stay in its file.
 */
const PUBLIC_ICONS = (() => {
  const tsx = (dir: string) => readdirSync(dir).filter((f) => f.endsWith(".tsx")).map((f) => `${dir}/${f}`);
  const union = (files: string[]) => new Set(files.flatMap((f) => [...iconsOf(f)]));
  const shellIcons = union(tsx("app/components"));
  const card = union([
    "app/routes/public/annuaire.tsx",
    ...tsx("app/features/directory/components"),
    "app/features/trust/components/verified-mark.tsx",
  ]);
  const profile = iconsOf("app/routes/public/consultant.tsx");
  const landing = iconsOf("app/routes/public/landing.tsx");
  const shared = new Set([...shellIcons, ...[...card, ...profile].filter((icon) => landing.has(icon))]);
  return {
    shared,
    card: new Set([...card].filter((icon) => !shared.has(icon))),
    landing: new Set([...landing].filter((icon) => !shared.has(icon))),
  };
})();

function isIcon(id: string, names: Set<string>): boolean {
  const m = /lucide-react[\\/]dist[\\/]esm[\\/]icons[\\/]([a-z0-9-]+)\.m?js$/.exec(id);
  return m !== null && names.has(m[1]!);
}

export default defineConfig({
  plugins: [zodClient(), reactRouterProduction(), lightLucide(), untrustedPdfWorker(), tailwindcss(), reactRouter()],
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
                { name: "framework", test: (id) => /node_modules[\\/](react|react-dom|scheduler|react-router)[\\/]/.test(id) || SHELL.some((re) => re.test(id)) || isIcon(id, PUBLIC_ICONS.shared), priority: 20 },
                // The shell every page loads (header, footer, ui primitives, the public pages' icons).
                { name: "shell", test: (id) => SHELL.some((re) => re.test(id)) || isIcon(id, PUBLIC_ICONS.shared), priority: 10 },
                // /annuaire and /consultant: their shared card parts in one file rather than two.
                { name: "profile-card", test: (id) => PROFILE_CARD.some((re) => re.test(id)) || isIcon(id, PUBLIC_ICONS.card), priority: 10 },
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
    // Bundled so that the server renders the same light icons as the browser (lightLucide).
    noExternal: ["lucide-react"],
  },
});
