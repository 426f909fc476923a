import { reactRouter } from "@react-router/dev/vite";
import tailwindcss from "@tailwindcss/vite";
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

export default defineConfig({
  plugins: [zodClient(), tailwindcss(), reactRouter()],
  resolve: { tsconfigPaths: true },
  build: { sourcemap: false },
  environments: {
    client: {
      build: {
        rolldownOptions: {
          output: {
            // React, React DOM and React Router in one file rather than three, loaded by every page.
            codeSplitting: { groups: [{ name: "framework", test: /node_modules[\\/](react|react-dom|scheduler|react-router)[\\/]/, priority: 20 }] },
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
