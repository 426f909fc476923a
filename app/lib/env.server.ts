// Environment, validated once at start (DESIGN §4.8). A wrong value stops the server with a
// message naming the variable.
import { z } from "zod";
import { LEGAL_VARIABLES, legalIdentityFrom, missingLegalVariables, type LegalIdentity } from "./legal";

const optionalString = z
  .string()
  .trim()
  .transform((v) => (v === "" ? undefined : v))
  .optional();

const optionalUrl = (protocols: RegExp, hint: string) =>
  optionalString.refine((v) => v === undefined || (URL.canParse(v) && protocols.test(new URL(v).protocol)), {
    message: hint,
  });

const boolish = z
  .enum(["true", "false", "1", "0", "yes", "no", ""])
  .optional()
  .transform((v) => v === "true" || v === "1" || v === "yes");

export const envSchema = z.object({
  NODE_ENV: z.enum(["development", "production", "test"]).default("development"),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().trim().min(1).default("0.0.0.0"),
  APP_NAME: z.string().trim().min(1).max(80).default("Réseau Transmission"),
  APP_URL: optionalUrl(/^https?:$/, "doit être une URL http(s), par ex. https://reseau.example.fr"),
  DATA_DIR: z.string().trim().min(1).default("./data"),
  DATABASE_URL: optionalUrl(/^postgres(ql)?:$/, "doit être une URL postgres://utilisateur@hôte:port/base"),
  DATABASE_POOL_MAX: z.coerce.number().int().min(1).max(200).default(10),
  // A streaming replica of DATABASE_URL for the public directory and profiles.
  DATABASE_READ_URL: optionalUrl(/^postgres(ql)?:$/, "doit être une URL postgres://utilisateur@hôte:port/base (réplique en lecture de DATABASE_URL)"),
  DATABASE_READ_POOL_MAX: z.coerce.number().int().min(1).max(200).default(4),
  // How long a browser that wrote public content reads it from the primary (its replica may lag).
  DATABASE_READ_AFTER_WRITE_MS: z.coerce.number().int().min(1_000).max(300_000).default(5_000),
  // The statements marked with a reusable plan are prepared once per connection;
  // `false` behind a pooler that does not keep them (PgBouncer in transaction mode before 1.21).
  DATABASE_PREPARED_STATEMENTS: z
    .enum(["true", "false", "1", "0", "yes", "no", ""])
    .optional()
    .transform((v) => v === undefined || v === "" || v === "true" || v === "1" || v === "yes"),
  BETTER_AUTH_SECRET: optionalString.refine((v) => v === undefined || v.length >= 32, {
    message: "doit contenir au moins 32 caractères",
  }),
  // Versioned secrets, read by better-auth itself, for rotating BETTER_AUTH_SECRET without
  // locking out two-factor accounts (docs/operations.md): the current version first.
  BETTER_AUTH_SECRETS: optionalString.refine((v) => v === undefined || /^\d+:[^\s,]{32,}(\s*,\s*\d+:[^\s,]{32,})*$/.test(v), {
    message: "doit être une liste « version:secret » séparée par des virgules, la version courante en premier (secrets d’au moins 32 caractères)",
  }),
  SMTP_URL: optionalUrl(/^smtps?:$/, "doit être une URL smtp:// ou smtps://"),
  MAIL_FROM: optionalString.refine((v) => v === undefined || /^(.+<[^@\s]+@[^@\s]+>|[^@\s]+@[^@\s]+)$/.test(v), {
    message: "doit être une adresse e-mail, éventuellement sous la forme « Nom <adresse> »",
  }),
  // How long a mail claimed by a dispatcher stays its own before another instance takes it over
  // (the claimer is presumed dead). Each send is bounded by half of it.
  MAIL_CLAIM_TIMEOUT_MS: z.coerce.number().int().min(1_000).max(86_400_000).default(300_000),
  CONTACT_EMAIL: z.email({ message: "doit être une adresse e-mail" }).default("contact@reseau-transmission.local"),
  STRIPE_SECRET_KEY: optionalString.refine((v) => v === undefined || /^(sk|rk)_(test|live)_/.test(v), {
    message: "doit commencer par sk_test_, sk_live_, rk_test_ ou rk_live_",
  }),
  STRIPE_WEBHOOK_SECRET: optionalString.refine((v) => v === undefined || v.startsWith("whsec_"), {
    message: "doit commencer par whsec_",
  }),
  // The operator is under the VAT franchise (art. 293 B du CGI): invoices carry no VAT.
  LEGAL_VAT_FRANCHISE: boolish,
  TRUST_PROXY: boolish,
  LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
  // Multiplies every rate limit. Only for test runs that send many requests from one address
  // (the browser suite); leave at 1 in production.
  RATE_LIMIT_SCALE: z.coerce.number().int().min(1).max(1000).default(1),
  // Benchmark only: each response carries X-Query-Count, the statements run to serve it.
  QUERY_STATS: boolish,
  // Benchmark only: requests sent with `X-Query-Log: 1` append their statements and parameters to
  // this file (JSON lines) for the bench's EXPLAIN. Parameters may be personal data: never in production.
  QUERY_LOG: z.string().min(1).optional(),
  MAIL_DISPATCH_INTERVAL_MS: z.coerce.number().int().min(100).max(600_000).default(2000),
  // Memory for the cache of anonymous public pages, per instance; 0 turns it off.
  PAGE_CACHE_MB: z.coerce.number().int().min(0).max(4096).default(64),
  // How long each instance keeps a signed-in member's session, profile and admin role for
  // read-only requests; 0 turns the cache off.
  SESSION_CACHE_TTL_MS: z.coerce.number().int().min(0).max(60_000).default(5000),
  // Benchmark A/B: caches of app/lib/cache.server.ts turned off, by name, comma-separated.
  CACHES_OFF: z
    .string()
    .optional()
    .transform((v) => (v ? v.split(",").map((n) => n.trim()).filter(Boolean) : [])),
  // Delay before the first run of every background job (reminders, reputation refresh,
  // notification purge); unset, each job's own (30 to 60 s after start). The benchmark sets it
  // beyond its measures so that an hourly job does not run in the middle of them.
  JOBS_START_DELAY_MS: z.coerce.number().int().min(0).max(86_400_000).optional(),
  // S3-compatible storage: used when STORAGE_S3_BUCKET is set.
  STORAGE_S3_BUCKET: optionalString.refine((v) => v === undefined || S3_BUCKET_NAME.test(v), {
    message: "doit être un nom de bucket S3 : 3 à 63 caractères, minuscules, chiffres, points et tirets",
  }),
  STORAGE_S3_ENDPOINT: optionalUrl(/^https?:$/, "doit être une URL http(s), par ex. https://s3.fr-par.scw.cloud"),
  STORAGE_S3_REGION: optionalString
    .refine((v) => v === undefined || /^[a-z0-9][a-z0-9-]{0,62}$/.test(v), { message: "doit être un nom de région, par ex. eu-west-3, fr-par ou auto" })
    .transform((v) => v ?? "us-east-1"),
  STORAGE_S3_ACCESS_KEY_ID: optionalString.refine((v) => v === undefined || /^\S{3,128}$/.test(v), { message: "doit être un identifiant de clé sans espace" }),
  STORAGE_S3_SECRET_ACCESS_KEY: optionalString.refine((v) => v === undefined || /^\S{1,256}$/.test(v), { message: "doit être une clé secrète sans espace" }),
  STORAGE_S3_FORCE_PATH_STYLE: boolish,
  // /metrics from another machine: `Authorization: Bearer <token>`; unset, only
  // this machine reads it.
  METRICS_TOKEN: optionalString.refine((v) => v === undefined || /^[\x21-\x7e]{32,}$/.test(v), {
    message: "doit contenir au moins 32 caractères ASCII imprimables, sans espace",
  }),
  // The platform's seal on its PDFs: a PKCS#12 file path (starting with / or .) or
  // its base64; unset outside a public deployment, a test certificate is generated in DATA_DIR.
  SIGNING_P12: optionalString,
  SIGNING_P12_PASSWORD: z.string().optional(),
  // RFC 3161 timestamp authority of the seal; unset outside a public deployment, a local test one.
  TSA_URL: optionalUrl(/^https?:$/, "doit être l’URL http(s) d’une autorité d’horodatage RFC 3161, par ex. https://horodatage.example.fr/tsa"),
  // OpenTelemetry traces: the OTLP/HTTP collector; unset, nothing is loaded.
  OTEL_EXPORTER_OTLP_ENDPOINT: optionalUrl(/^https?:$/, "doit être l’URL http(s) d’un collecteur OTLP/HTTP, par ex. http://otel-collector:4318"),
});

const S3_BUCKET_NAME = /^(?!\d+\.\d+\.\d+\.\d+$)[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/;

/** The STORAGE_S3_* variables that do not go together (pure; lines of the start-up message). */
function storageS3Problems(env: z.infer<typeof envSchema>, raw: Record<string, string | undefined>): string[] {
  const problems: string[] = [];
  const given = Object.keys(raw).filter((name) => name.startsWith("STORAGE_S3_") && (raw[name] ?? "").trim() !== "");
  for (const name of given) {
    if (!(name in envSchema.shape)) problems.push(`  - ${name} : variable inconnue (voir README, stockage S3)`);
  }
  if (!env.STORAGE_S3_BUCKET && given.length > 0) {
    problems.push(`  - STORAGE_S3_BUCKET : obligatoire quand ${given[0]} est défini`);
  }
  if (env.STORAGE_S3_ACCESS_KEY_ID && !env.STORAGE_S3_SECRET_ACCESS_KEY) {
    problems.push("  - STORAGE_S3_SECRET_ACCESS_KEY : obligatoire quand STORAGE_S3_ACCESS_KEY_ID est défini");
  }
  if (env.STORAGE_S3_SECRET_ACCESS_KEY && !env.STORAGE_S3_ACCESS_KEY_ID) {
    problems.push("  - STORAGE_S3_ACCESS_KEY_ID : obligatoire quand STORAGE_S3_SECRET_ACCESS_KEY est défini");
  }
  return problems;
}

/** Whether the application reads this variable (the schema's and the LEGAL_* ones): deployment
 * files are checked against it (scripts/container-recipe.test.ts). */
export function isKnownVariable(name: string): boolean {
  return Object.hasOwn(envSchema.shape, name) || LEGAL_VARIABLES.includes(name);
}

export type Env = z.infer<typeof envSchema> & { APP_URL: string; legal: LegalIdentity };

export class EnvError extends Error {}

/** Pure: parses a raw environment; throws EnvError naming every bad variable. */
export function parseEnv(raw: Record<string, string | undefined>): Env {
  const result = envSchema.safeParse(raw);
  if (!result.success) {
    const lines = result.error.issues.map((i) => `  - ${i.path.join(".") || "(env)"} : ${i.message}`);
    throw new EnvError(`Configuration invalide :\n${lines.join("\n")}`);
  }
  const env = result.data;
  const storageProblems = storageS3Problems(env, raw);
  if (storageProblems.length > 0) throw new EnvError(`Configuration invalide :\n${storageProblems.join("\n")}`);
  // better-auth signs its cookies with the current versioned secret, the app its links and
  // cookies with BETTER_AUTH_SECRET: they must be the same secret.
  const currentVersioned = env.BETTER_AUTH_SECRETS?.split(",")[0]!.trim().replace(/^\d+:/, "");
  if (currentVersioned !== undefined && currentVersioned !== env.BETTER_AUTH_SECRET) {
    throw new EnvError("Configuration invalide :\n  - BETTER_AUTH_SECRETS : la première version doit avoir la valeur de BETTER_AUTH_SECRET (voir docs/operations.md)");
  }
  if (env.STRIPE_SECRET_KEY && !env.STRIPE_WEBHOOK_SECRET) {
    throw new EnvError("Configuration invalide :\n  - STRIPE_WEBHOOK_SECRET : obligatoire quand STRIPE_SECRET_KEY est défini");
  }
  if (env.SMTP_URL && !env.MAIL_FROM) {
    throw new EnvError("Configuration invalide :\n  - MAIL_FROM : obligatoire quand SMTP_URL est défini (adresse d'expédition acceptée par votre serveur SMTP)");
  }
  // The built-in mailbox shows every e-mail (sign-in and reset links included) to anyone: a
  // public HTTPS deployment must send real mail.
  if (env.APP_URL?.startsWith("https://") && !env.SMTP_URL) {
    throw new EnvError("Configuration invalide :\n  - SMTP_URL : obligatoire quand APP_URL est en https (sinon la boîte mail locale exposerait les liens de connexion)");
  }
  // Without Stripe the local test checkout grants the founding membership without payment:
  // never on a public HTTPS deployment.
  if (env.APP_URL?.startsWith("https://") && !env.STRIPE_SECRET_KEY) {
    throw new EnvError("Configuration invalide :\n  - STRIPE_SECRET_KEY : obligatoire quand APP_URL est en https (sinon le paiement de test accorderait l'adhésion sans paiement)");
  }
  // The operator's legal identity (mentions légales, contact): a public deployment shows no
  // placeholder, so every LEGAL_* variable is required with an https APP_URL.
  const missingLegal = missingLegalVariables(raw);
  if (env.APP_URL?.startsWith("https://") && missingLegal.length > 0) {
    throw new EnvError(
      `Configuration invalide :\n${missingLegal.map((name) => `  - ${name} : obligatoire quand APP_URL est en https (identité de l'exploitant, voir README)`).join("\n")}`,
    );
  }
  // A public deployment seals with the operator's certificate and a real timestamp authority,
  // never the generated test ones.
  for (const name of ["SIGNING_P12", "TSA_URL"] as const) {
    if (env.APP_URL?.startsWith("https://") && !env[name]) {
      throw new EnvError(`Configuration invalide :\n  - ${name} : obligatoire quand APP_URL est en https (cachet électronique des PDF, voir README)`);
    }
  }
  const appUrl = (env.APP_URL ?? defaultAppUrl(env.HOST, env.PORT)).replace(/\/+$/, "");
  return { ...env, APP_URL: appUrl, legal: legalIdentityFrom(raw) };
}

let current: Env | undefined;

export function getEnv(): Env {
  current ??= parseEnv(process.env);
  return current;
}

/** For tests and boot: replaces the cached environment. */
export function setEnv(env: Env) {
  current = env;
}

/**
 * APP_URL when it is not set: the loopback address the server listens on, so that links in
 * e-mails point where the site is browsed (HOST=127.0.0.1 → http://127.0.0.1:PORT); localhost
 * when it listens on every interface or on a name.
 */
export function defaultAppUrl(host: string, port: number): string {
  const h = host.trim();
  if (/^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(h)) return `http://${h}:${port}`;
  if (h === "::1") return `http://[::1]:${port}`;
  return `http://localhost:${port}`;
}

/** The address a browser on this machine uses to reach the listener (for the start-up line). */
export function listenUrl(host: string, port: number): string {
  const h = host.trim();
  if (h === "0.0.0.0" || h === "::" || h === "") return `http://localhost:${port}`;
  return h.includes(":") ? `http://[${h}]:${port}` : `http://${h}:${port}`;
}
