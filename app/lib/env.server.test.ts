import { describe, expect, it } from "vitest";
import { defaultAppUrl, EnvError, isKnownVariable, listenUrl, parseEnv } from "./env.server";
import { isLegalPlaceholder } from "./legal";
import { LEGAL_ENV } from "../../tests/support/legal-env";


describe("parseEnv", () => {
  it("applies the documented defaults", () => {
    const env = parseEnv({});
    expect(env.PORT).toBe(3000);
    expect(env.HOST).toBe("0.0.0.0");
    expect(env.APP_NAME).toBe("Réseau Transmission");
    expect(env.APP_URL).toBe("http://localhost:3000");
    expect(env.DATA_DIR).toBe("./data");
    expect(env.DATABASE_URL).toBeUndefined();
    expect(env.SMTP_URL).toBeUndefined();
    expect(env.TRUST_PROXY).toBe(false);
  });

  it("derives APP_URL from PORT and strips a trailing slash", () => {
    expect(parseEnv({ PORT: "8080" }).APP_URL).toBe("http://localhost:8080");
    const https = {
      SMTP_URL: "smtp://mail.example.fr:587",
      MAIL_FROM: "no-reply@example.fr",
      STRIPE_SECRET_KEY: "sk_test_x",
      STRIPE_WEBHOOK_SECRET: "whsec_x",
      SIGNING_P12: "./seal.p12",
      TSA_URL: "https://horodatage.example.fr/tsa",
      ...LEGAL_ENV,
    };
    expect(parseEnv({ ...https, APP_URL: "https://reseau.example.fr/" }).APP_URL).toBe("https://reseau.example.fr");
  });

  it("JOBS_START_DELAY_MS: unset leaves each job its own delay, else a number of milliseconds", () => {
    expect(parseEnv({}).JOBS_START_DELAY_MS).toBeUndefined();
    expect(parseEnv({ JOBS_START_DELAY_MS: "0" }).JOBS_START_DELAY_MS).toBe(0);
    expect(parseEnv({ JOBS_START_DELAY_MS: "7200000" }).JOBS_START_DELAY_MS).toBe(7_200_000);
  });

  it("DATABASE_READ_URL: optional; a small pool and 5 s of primary reads after a write by default", () => {
    const env = parseEnv({});
    expect(env.DATABASE_READ_URL).toBeUndefined();
    expect(env.DATABASE_READ_POOL_MAX).toBe(4);
    expect(env.DATABASE_READ_AFTER_WRITE_MS).toBe(5_000);
    expect(parseEnv({ DATABASE_READ_URL: "postgres://app@replica:5432/reseau" }).DATABASE_READ_URL).toBe("postgres://app@replica:5432/reseau");
    expect(() => parseEnv({ DATABASE_READ_URL: "http://replica/reseau" })).toThrow(/DATABASE_READ_URL : doit être une URL postgres:\/\//);
    expect(() => parseEnv({ DATABASE_READ_AFTER_WRITE_MS: "10" })).toThrow(/DATABASE_READ_AFTER_WRITE_MS/);
  });

  it("DATABASE_PREPARED_STATEMENTS: on unless turned off (decision 026)", () => {
    expect(parseEnv({}).DATABASE_PREPARED_STATEMENTS).toBe(true);
    expect(parseEnv({ DATABASE_PREPARED_STATEMENTS: "" }).DATABASE_PREPARED_STATEMENTS).toBe(true);
    expect(parseEnv({ DATABASE_PREPARED_STATEMENTS: "false" }).DATABASE_PREPARED_STATEMENTS).toBe(false);
    expect(parseEnv({ DATABASE_PREPARED_STATEMENTS: "0" }).DATABASE_PREPARED_STATEMENTS).toBe(false);
    expect(parseEnv({ DATABASE_PREPARED_STATEMENTS: "true" }).DATABASE_PREPARED_STATEMENTS).toBe(true);
    expect(() => parseEnv({ DATABASE_PREPARED_STATEMENTS: "parfois" })).toThrow(/DATABASE_PREPARED_STATEMENTS/);
  });

  it("METRICS_TOKEN and OTEL_EXPORTER_OTLP_ENDPOINT: optional (decision 043)", () => {
    expect(parseEnv({}).METRICS_TOKEN).toBeUndefined();
    expect(parseEnv({}).OTEL_EXPORTER_OTLP_ENDPOINT).toBeUndefined();
    expect(parseEnv({ METRICS_TOKEN: "m".repeat(32) }).METRICS_TOKEN).toBe("m".repeat(32));
    expect(parseEnv({ OTEL_EXPORTER_OTLP_ENDPOINT: "http://otel-collector:4318" }).OTEL_EXPORTER_OTLP_ENDPOINT).toBe("http://otel-collector:4318");
  });

  it("treats empty strings as unset", () => {
    const env = parseEnv({ DATABASE_URL: "", SMTP_URL: " ", STRIPE_SECRET_KEY: "" });
    expect(env.DATABASE_URL).toBeUndefined();
    expect(env.SMTP_URL).toBeUndefined();
    expect(env.STRIPE_SECRET_KEY).toBeUndefined();
  });

  it.each([
    [{ PORT: "abc" }, "PORT"],
    [{ PORT: "70000" }, "PORT"],
    [{ DATABASE_URL: "mysql://localhost/db" }, "DATABASE_URL"],
    [{ DATABASE_URL: "not a url" }, "DATABASE_URL"],
    [{ APP_URL: "ftp://example.fr" }, "APP_URL"],
    [{ SMTP_URL: "http://mail.example.fr" }, "SMTP_URL"],
    [{ BETTER_AUTH_SECRET: "short" }, "BETTER_AUTH_SECRET"],
    [{ BETTER_AUTH_SECRET: "n".repeat(40), BETTER_AUTH_SECRETS: "n".repeat(40) }, "BETTER_AUTH_SECRETS : doit être une liste"],
    [{ BETTER_AUTH_SECRET: "n".repeat(40), BETTER_AUTH_SECRETS: `2:${"n".repeat(40)},1:short` }, "BETTER_AUTH_SECRETS : doit être une liste"],
    [{ BETTER_AUTH_SECRET: "n".repeat(40), BETTER_AUTH_SECRETS: `2:${"o".repeat(40)},1:${"n".repeat(40)}` }, "BETTER_AUTH_SECRETS : la première version"],
    [{ BETTER_AUTH_SECRETS: `1:${"o".repeat(40)}` }, "BETTER_AUTH_SECRETS : la première version"],
    [{ CONTACT_EMAIL: "pas-un-email" }, "CONTACT_EMAIL"],
    [{ LOG_LEVEL: "verbose" }, "LOG_LEVEL"],
    [{ TRUST_PROXY: "peut-etre" }, "TRUST_PROXY"],
    [{ STRIPE_SECRET_KEY: "pk_test_123" }, "STRIPE_SECRET_KEY"],
    [{ STRIPE_SECRET_KEY: "sk_test_123" }, "STRIPE_WEBHOOK_SECRET"],
    [{ NODE_ENV: "staging" }, "NODE_ENV"],
    [{ JOBS_START_DELAY_MS: "-1" }, "JOBS_START_DELAY_MS"],
    [{ JOBS_START_DELAY_MS: "bientôt" }, "JOBS_START_DELAY_MS"],
    [{ SMTP_URL: "smtp://mail.example.fr:587" }, "MAIL_FROM"],
    [{ APP_URL: "https://reseau.example.fr" }, "SMTP_URL"],
    [{ APP_URL: "https://reseau.example.fr", SMTP_URL: "smtp://m.example.fr", MAIL_FROM: "a@b.fr" }, "STRIPE_SECRET_KEY"],
    [{ METRICS_TOKEN: "trop-court" }, "METRICS_TOKEN"],
    [{ METRICS_TOKEN: `${"x".repeat(20)} ${"y".repeat(20)}` }, "METRICS_TOKEN"],
    [{ OTEL_EXPORTER_OTLP_ENDPOINT: "otel-collector:4318" }, "OTEL_EXPORTER_OTLP_ENDPOINT"],
    [{ OTEL_EXPORTER_OTLP_ENDPOINT: "grpc://otel-collector:4317" }, "OTEL_EXPORTER_OTLP_ENDPOINT"],
  ])("rejects %o naming %s", (raw, variable) => {
    expect(() => parseEnv(raw)).toThrow(EnvError);
    expect(() => parseEnv(raw)).toThrow(variable);
  });

  it("accepts a complete production configuration", () => {
    const env = parseEnv({
      NODE_ENV: "production",
      PORT: "3000",
      APP_URL: "https://reseau.example.fr",
      DATABASE_URL: "postgres://app:pw@db.internal:5432/reseau",
      BETTER_AUTH_SECRET: "x".repeat(40),
      SMTP_URL: "smtps://user:pw@smtp.example.fr:465",
      MAIL_FROM: "Réseau Transmission <no-reply@example.fr>",
      STRIPE_SECRET_KEY: "sk_live_abc",
      STRIPE_WEBHOOK_SECRET: "whsec_abc",
      TRUST_PROXY: "true",
      SIGNING_P12: "/run/secrets/seal.p12",
      SIGNING_P12_PASSWORD: "secret",
      TSA_URL: "https://horodatage.example.fr/tsa",
      ...LEGAL_ENV,
    });
    expect(env.TRUST_PROXY).toBe(true);
    expect(env.DATABASE_URL).toContain("db.internal");
  });

  it("BETTER_AUTH_SECRETS: the rotation's versions, the current one being BETTER_AUTH_SECRET", () => {
    const [current, previous] = ["n".repeat(40), "o".repeat(64)];
    expect(parseEnv({ BETTER_AUTH_SECRET: current, BETTER_AUTH_SECRETS: `2:${current}, 1:${previous}` }).BETTER_AUTH_SECRETS).toBe(`2:${current}, 1:${previous}`);
    expect(parseEnv({ BETTER_AUTH_SECRET: current }).BETTER_AUTH_SECRETS).toBeUndefined();
  });

  it("knows which variables it reads (deployment files are checked against it)", () => {
    for (const name of ["PORT", "STORAGE_S3_BUCKET", "BETTER_AUTH_SECRETS", "LEGAL_SIRET", "LEGAL_PRIVACY_EMAIL"]) expect(isKnownVariable(name)).toBe(true);
    for (const name of ["PROT", "STORAGE_S3_SECRET", "LEGAL_SIRETT", "toString", "__proto__"]) expect(isKnownVariable(name)).toBe(false);
  });
});

describe("the operator's legal identity (issue 16)", () => {
  const https = {
    APP_URL: "https://reseau.example.fr",
    SMTP_URL: "smtp://mail.example.fr:587",
    MAIL_FROM: "no-reply@example.fr",
    STRIPE_SECRET_KEY: "sk_test_x",
    STRIPE_WEBHOOK_SECRET: "whsec_x",
    SIGNING_P12: "/run/secrets/seal.p12",
    TSA_URL: "https://horodatage.example.fr/tsa",
  };
  it("an https deployment seals with the operator's certificate and timestamp authority (decision 050)", () => {
    for (const name of ["SIGNING_P12", "TSA_URL"] as const) {
      const { [name]: _gone, ...without } = https;
      expect(() => parseEnv({ ...without, ...LEGAL_ENV })).toThrow(new RegExp(`${name} : obligatoire quand APP_URL est en https`));
    }
    expect(() => parseEnv({ ...https, ...LEGAL_ENV, TSA_URL: "horodatage.example.fr" })).toThrow(/TSA_URL : doit être l’URL/);
    // Outside a public deployment both may stay unset (generated test certificate, OpenSSL test TSA).
    expect(parseEnv({}).SIGNING_P12).toBeUndefined();
  });

  it("an https deployment refuses to start while a LEGAL_* variable is missing, naming it", () => {
    const { LEGAL_PHONE: _phone, ...withoutPhone } = LEGAL_ENV;
    expect(() => parseEnv({ ...https, ...withoutPhone })).toThrow(/LEGAL_PHONE : obligatoire quand APP_URL est en https/);
    expect(() => parseEnv(https)).toThrow(/LEGAL_COMPANY_NAME/);
    const env = parseEnv({ ...https, ...LEGAL_ENV });
    expect(env.legal.companyName).toBe("Réseau Transmission SAS");
    expect(env.legal.privacyEmail).toBe("contact@reseau.example.fr");
    expect(Object.values(env.legal).some((v) => typeof v === "string" && isLegalPlaceholder(v))).toBe(false);
  });

  it("in local mode a missing value is a visible placeholder", () => {
    const env = parseEnv({});
    expect(env.legal.companyName).toBe("[Raison sociale de l’exploitant — à compléter]");
    expect(isLegalPlaceholder(env.legal.siret)).toBe(true);
  });
});

describe("default APP_URL and the start-up address", () => {
  it.each([
    ["0.0.0.0", "http://localhost:3000"],
    ["127.0.0.1", "http://127.0.0.1:3000"],
    ["127.0.0.5", "http://127.0.0.5:3000"],
    ["::1", "http://[::1]:3000"],
    ["localhost", "http://localhost:3000"],
  ])("HOST=%s → %s", (host, url) => expect(defaultAppUrl(host, 3000)).toBe(url));

  it.each([
    ["0.0.0.0", "http://localhost:8080"],
    ["::", "http://localhost:8080"],
    ["127.0.0.1", "http://127.0.0.1:8080"],
    ["192.168.1.20", "http://192.168.1.20:8080"],
    ["::1", "http://[::1]:8080"],
  ])("listening on %s → %s", (host, url) => expect(listenUrl(host, 8080)).toBe(url));

  it("an unset APP_URL follows a loopback HOST", () => {
    expect(parseEnv({ HOST: "127.0.0.1", PORT: "4000" }).APP_URL).toBe("http://127.0.0.1:4000");
  });
});

describe("S3-compatible storage (STORAGE_S3_*, issue 33)", () => {
  const complete = {
    STORAGE_S3_BUCKET: "reseau-documents",
    STORAGE_S3_ENDPOINT: "https://s3.fr-par.scw.cloud",
    STORAGE_S3_REGION: "fr-par",
    STORAGE_S3_ACCESS_KEY_ID: "SCWABCDEFGHIJ",
    STORAGE_S3_SECRET_ACCESS_KEY: "0123456789abcdef-secret",
    STORAGE_S3_FORCE_PATH_STYLE: "true",
  };

  it("unset: no bucket, the region defaults to us-east-1, virtual-hosted URLs", () => {
    const env = parseEnv({});
    expect(env.STORAGE_S3_BUCKET).toBeUndefined();
    expect(env.STORAGE_S3_REGION).toBe("us-east-1");
    expect(env.STORAGE_S3_FORCE_PATH_STYLE).toBe(false);
  });

  it("accepts a complete configuration, and a bucket alone (AWS, credentials from the SDK's chain)", () => {
    expect(parseEnv(complete)).toMatchObject({ STORAGE_S3_BUCKET: "reseau-documents", STORAGE_S3_REGION: "fr-par", STORAGE_S3_FORCE_PATH_STYLE: true });
    expect(parseEnv({ STORAGE_S3_BUCKET: "my.bucket-1" }).STORAGE_S3_ENDPOINT).toBeUndefined();
  });

  it.each([
    [{ STORAGE_S3_BUCKET: "Majuscules" }, "STORAGE_S3_BUCKET : doit être un nom de bucket S3"],
    [{ STORAGE_S3_BUCKET: "ab" }, "STORAGE_S3_BUCKET : doit être un nom de bucket S3"],
    [{ STORAGE_S3_BUCKET: "192.168.1.10" }, "STORAGE_S3_BUCKET : doit être un nom de bucket S3"],
    [{ STORAGE_S3_BUCKET: "b-1", STORAGE_S3_ENDPOINT: "s3.example.fr" }, "STORAGE_S3_ENDPOINT : doit être une URL http(s)"],
    [{ STORAGE_S3_BUCKET: "b-1", STORAGE_S3_ENDPOINT: "ftp://s3.example.fr" }, "STORAGE_S3_ENDPOINT : doit être une URL http(s)"],
    [{ STORAGE_S3_BUCKET: "b-1", STORAGE_S3_REGION: "Paris 1" }, "STORAGE_S3_REGION : doit être un nom de région"],
    [{ STORAGE_S3_BUCKET: "b-1", STORAGE_S3_FORCE_PATH_STYLE: "oui" }, "STORAGE_S3_FORCE_PATH_STYLE"],
    [{ STORAGE_S3_BUCKET: "b-1", STORAGE_S3_ACCESS_KEY_ID: "AKIA1234" }, "STORAGE_S3_SECRET_ACCESS_KEY : obligatoire quand STORAGE_S3_ACCESS_KEY_ID est défini"],
    [{ STORAGE_S3_BUCKET: "b-1", STORAGE_S3_SECRET_ACCESS_KEY: "secret-secret" }, "STORAGE_S3_ACCESS_KEY_ID : obligatoire quand STORAGE_S3_SECRET_ACCESS_KEY est défini"],
    [{ STORAGE_S3_BUCKET: "b-1", STORAGE_S3_ACCESS_KEY_ID: "AKIA 1234", STORAGE_S3_SECRET_ACCESS_KEY: "secret-secret" }, "STORAGE_S3_ACCESS_KEY_ID : doit être un identifiant"],
    [{ STORAGE_S3_BUCKET: "b-1", STORAGE_S3_ACCESS_KEY_ID: "AKIA1234", STORAGE_S3_SECRET_ACCESS_KEY: "clé avec espaces" }, "STORAGE_S3_SECRET_ACCESS_KEY : doit être une clé secrète"],
    [{ STORAGE_S3_ENDPOINT: "https://s3.example.fr" }, "STORAGE_S3_BUCKET : obligatoire quand STORAGE_S3_ENDPOINT est défini"],
    [{ STORAGE_S3_ACCESS_KEY_ID: "AKIA1234", STORAGE_S3_SECRET_ACCESS_KEY: "secret-secret" }, "STORAGE_S3_BUCKET : obligatoire quand STORAGE_S3_ACCESS_KEY_ID est défini"],
    [{ STORAGE_S3_BUCKET: "b-1", STORAGE_S3_SECRET: "secret-secret" }, "STORAGE_S3_SECRET : variable inconnue"],
  ])("rejects %o with « %s »", (raw, message) => {
    expect(() => parseEnv(raw)).toThrow(EnvError);
    expect(() => parseEnv(raw)).toThrow(message);
  });
});
