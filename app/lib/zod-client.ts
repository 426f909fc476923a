// zod as the browser gets it: vite.config.ts resolves `import … from "zod"` in client code to this
// module, so that its settings are in place before any schema of the page is built.
// - French messages, as on the server (app/lib/zod-locale.ts, loaded by entry.server.tsx).
// - No JIT: zod probes `new Function("")` before compiling its fast object parser. The CSP has no
//   'unsafe-eval', so the probe fails harmlessly, but Chrome reports a CSP violation (and
//   Lighthouse's best-practices audit counts it) on every page that builds a schema.
// Only the pages that use zod load it: the root does not import zod.
import { z } from "zod/v4";

z.config({ ...z.locales.fr(), jitless: true });

export * from "zod/v4";
export { z, z as default };
