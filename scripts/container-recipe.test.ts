// The production recipe (Dockerfile, compose.yaml, deploy/) checked with what runs here: no
// container engine does, so the files are parsed and held against the application itself — its
// configuration schema (app/lib/env.server.ts), package.json's scripts, CI's install command and
// the server's port and health routes (decision 044).
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { parse as parseYaml } from "yaml";
import { envSchema, isKnownVariable, parseEnv } from "~/lib/env.server";

const root = path.resolve(import.meta.dirname, "..");
const read = (file: string) => readFileSync(path.join(root, file), "utf8");
const pkg = JSON.parse(read("package.json")) as { scripts: Record<string, string> };

// ---- Parsers --------------------------------------------------------------------------------

/** KEY=value lines as compose's env_file and systemd's EnvironmentFile read them (no quoting used). */
function parseEnvFile(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const raw of text.split("\n")) {
    const line = raw.trim();
    if (line === "" || line.startsWith("#")) continue;
    const eq = line.indexOf("=");
    if (eq < 1) throw new Error(`ligne sans « = » : ${line}`);
    out[line.slice(0, eq).trim()] = line.slice(eq + 1).trim();
  }
  return out;
}

/** Compose's interpolation: $$, ${VAR}, ${VAR:-default}, ${VAR:?message}, from the .env variables. */
function interpolate(value: string, vars: Record<string, string>): string {
  return value.replace(/\$\$|\$\{([A-Z0-9_]+)(?::([-?])([^}]*))?\}/g, (match, name: string | undefined, op: string | undefined, arg: string | undefined) => {
    if (match === "$$") return "$";
    const given = vars[name!];
    if (given !== undefined && given !== "") return given;
    if (op === "-") return arg ?? "";
    throw new Error(`${name} manque dans deploy/compose.env.example (${arg ?? "sans valeur par défaut"})`);
  });
}

type ComposeService = {
  build?: unknown;
  image?: string;
  environment?: Record<string, string | number | boolean | null> | string[];
  env_file?: Array<string | { path: string; required?: boolean }>;
  volumes?: string[];
  expose?: string[];
  healthcheck?: { test: string[] };
  command?: string[];
};
type Compose = { services: Record<string, ComposeService> };

const loadCompose = (text = read("compose.yaml")) => parseYaml(text, { merge: true }) as Compose;
const composeVars = parseEnvFile(read("deploy/compose.env.example"));

/** The services that run the application: those built from this repository. */
function appServices(compose: Compose): Array<[string, ComposeService]> {
  return Object.entries(compose.services).filter(([, s]) => s.build !== undefined);
}

/** What one app container gets: its env_file (the shipped example) overridden by `environment`. */
function containerEnvironment(service: ComposeService): Record<string, string> {
  const env: Record<string, string> = {};
  for (const entry of service.env_file ?? []) {
    const file = typeof entry === "string" ? entry : entry.path;
    Object.assign(env, parseEnvFile(read(`${file}.example`)));
  }
  const given = service.environment ?? {};
  const pairs = Array.isArray(given) ? given.map((kv) => kv.split(/=(.*)/s, 2) as [string, string]) : Object.entries(given).map(([k, v]) => [k, String(v ?? "")] as [string, string]);
  for (const [name, value] of pairs) env[name] = interpolate(value, composeVars);
  return env;
}

/** The variables the application does not read (a misspelt name among them). */
function unknownVariables(env: Record<string, string>, alsoAllowed: (name: string) => boolean = () => false): string[] {
  return Object.keys(env).filter((name) => !isKnownVariable(name) && !alsoAllowed(name));
}

// npm's own settings (cache, update notice) are read by npm, which runs the server, not by the app;
// MALLOC_ARENA_MAX by the C library under Node (decision 081).
const isNpmSetting = (name: string) => /^npm_config_/i.test(name);
const isRuntimeSetting = (name: string) => name === "MALLOC_ARENA_MAX";

type Instruction = { stage: number; keyword: string; args: string };

/** The Dockerfile's instructions (continuations joined, comments dropped), each with its stage. */
function parseDockerfile(text: string): { instructions: Instruction[]; stages: string[] } {
  const logical: string[] = [];
  let current = "";
  for (const raw of text.split("\n")) {
    const line = raw.trimEnd();
    if (current === "" && (line.trim() === "" || line.trim().startsWith("#"))) continue;
    if (line.trim().startsWith("#")) continue;
    if (line.endsWith("\\")) {
      current += line.slice(0, -1) + " ";
      continue;
    }
    logical.push((current + line).trim());
    current = "";
  }
  const stages: string[] = [];
  const instructions: Instruction[] = [];
  for (const line of logical) {
    const [, keyword, args] = /^(\S+)\s*(.*)$/s.exec(line)!;
    const upper = keyword!.toUpperCase();
    if (upper === "FROM") stages.push(/\bAS\s+(\S+)/i.exec(args!)?.[1] ?? `stage${stages.length}`);
    instructions.push({ stage: stages.length - 1, keyword: upper, args: args!.replace(/\s+/g, " ").trim() });
  }
  return { instructions, stages };
}

/** ENV lines of a stage as a record (`ENV A=1 B=2` form). */
function dockerEnv(instructions: Instruction[], stage: number): Record<string, string> {
  const env: Record<string, string> = {};
  for (const i of instructions.filter((x) => x.stage === stage && x.keyword === "ENV")) {
    for (const m of i.args.matchAll(/([A-Za-z_][A-Za-z0-9_]*)=("[^"]*"|\S+)/g)) env[m[1]!] = m[2]!.replace(/^"|"$/g, "");
  }
  return env;
}

/** package.json's `serve` as the words a process runner executes: assignments and `exec` removed. */
function serveCommand(): { argv: string[]; env: Record<string, string> } {
  const words = pkg.scripts.serve!.trim().split(/\s+/);
  const env: Record<string, string> = {};
  while (words.length > 0 && /^[A-Z_][A-Z0-9_]*=/.test(words[0]!)) {
    const [name, value] = words.shift()!.split(/=(.*)/s, 2);
    env[name!] = value!;
  }
  if (words[0] === "exec") words.shift();
  return { argv: words, env };
}

/** Whether a start command is `npm run serve`, or runs exactly what `serve` runs. */
function startsLikeServe(argv: string[]): boolean {
  const words = argv.map((w, i) => (i === 0 ? path.basename(w) : w));
  if (words.join(" ") === "npm run serve") return true;
  const serve = serveCommand().argv;
  return words.join(" ") === [path.basename(serve[0]!), ...serve.slice(1)].join(" ");
}

/** systemd unit: `Key=value` of one section, repeated keys kept in order. */
function unitEntries(text: string, section: string): Array<[string, string]> {
  const out: Array<[string, string]> = [];
  let inSection = false;
  for (const raw of text.split("\n")) {
    const line = raw.trim();
    if (line.startsWith("[")) inSection = line === `[${section}]`;
    else if (inSection && line !== "" && !line.startsWith("#") && !line.startsWith(";")) {
      const eq = line.indexOf("=");
      out.push([line.slice(0, eq), line.slice(eq + 1)]);
    }
  }
  return out;
}

const defaultPort = envSchema.shape.PORT.parse(undefined);
const routes = read("app/routes.ts");
const hasRoute = (p: string) => new RegExp(`route\\(\\s*"${p.replace(/^\//, "")}"`).test(routes);

// ---- compose.yaml ------------------------------------------------------------------------------

describe("compose.yaml", () => {
  const compose = loadCompose();
  const apps = appServices(compose);

  it("runs two instances of the app beside PostgreSQL, Caddy and an S3-compatible store", () => {
    expect(apps.map(([name]) => name)).toHaveLength(2);
    expect(compose.services.postgres?.image).toMatch(/^postgres:/);
    expect(compose.services.caddy?.image).toMatch(/^caddy:/);
    expect(compose.services.garage?.image).toMatch(/^dxflrs\/garage:v\d/);
  });

  it("gives each app only variables the application reads, and they pass its validation", () => {
    for (const [, service] of apps) {
      const env = containerEnvironment(service);
      expect(unknownVariables(env)).toEqual([]);
      // The app's own start-up check, https rules included (SMTP, Stripe, legal identity).
      const parsed = parseEnv(env);
      expect(parsed.DATABASE_URL).toMatch(/@postgres:5432\//);
      expect(parsed.STORAGE_S3_BUCKET).toBe(composeVars.S3_BUCKET);
      expect(parsed.STORAGE_S3_FORCE_PATH_STYLE).toBe(true);
      expect(parsed.TRUST_PROXY).toBe(true);
      expect(parsed.APP_URL).toMatch(/^https:\/\//);
    }
  });

  it("catches a misspelt variable", () => {
    const misspelt = loadCompose(read("compose.yaml").replace("STORAGE_S3_FORCE_PATH_STYLE:", "STORAGE_S3_FORCE_PATHSTYLE:"));
    for (const [, service] of appServices(misspelt)) {
      expect(unknownVariables(containerEnvironment(service))).toEqual(["STORAGE_S3_FORCE_PATHSTYLE"]);
    }
  });

  it("shares the store's key and bucket between Garage and the app", () => {
    const garage = compose.services.garage!.environment as Record<string, string>;
    for (const [, service] of apps) {
      const env = containerEnvironment(service);
      expect(env.STORAGE_S3_ACCESS_KEY_ID).toBe(interpolate(garage.GARAGE_DEFAULT_ACCESS_KEY!, composeVars));
      expect(env.STORAGE_S3_SECRET_ACCESS_KEY).toBe(interpolate(garage.GARAGE_DEFAULT_SECRET_KEY!, composeVars));
      expect(env.STORAGE_S3_BUCKET).toBe(interpolate(garage.GARAGE_DEFAULT_BUCKET!, composeVars));
      expect(env.STORAGE_S3_REGION).toBe(/s3_region\s*=\s*"([^"]+)"/.exec(read("deploy/garage.toml"))![1]);
    }
  });

  it("keeps each instance's DATA_DIR on its own volume", () => {
    const mounts = apps.map(([, s]) => {
      const dataDir = containerEnvironment(s).DATA_DIR!;
      const volume = (s.volumes ?? []).find((v) => v.split(":")[1] === dataDir);
      expect(volume, `volume sur ${dataDir}`).toBeDefined();
      return volume!.split(":")[0];
    });
    expect(new Set(mounts).size).toBe(apps.length);
  });

  it("sends the proxy to the port the apps listen on and routes on their readiness", () => {
    const caddyfile = read("deploy/Caddyfile");
    const upstreams = /reverse_proxy\s+([^{]+)\{/.exec(caddyfile)![1]!.trim().split(/\s+/);
    expect(upstreams.sort()).toEqual(apps.map(([name, s]) => `${name}:${containerEnvironment(s).PORT ?? defaultPort}`).sort());
    const healthUri = /health_uri\s+(\S+)/.exec(caddyfile)![1]!;
    expect(healthUri).toBe("/readyz");
    expect(hasRoute(healthUri)).toBe(true);
    for (const [, s] of apps) expect(s.expose).toContain(String(containerEnvironment(s).PORT ?? defaultPort));
  });

  it("runs the PostgreSQL major the image's pg_dump is installed for", () => {
    const pgMajor = /^ARG PG_MAJOR=(\d+)$/m.exec(read("Dockerfile"))![1];
    expect(compose.services.postgres!.image).toMatch(new RegExp(`^postgres:${pgMajor}\\b`));
  });
});

// ---- Dockerfile ----------------------------------------------------------------------------------

describe("Dockerfile", () => {
  const { instructions, stages } = parseDockerfile(read("Dockerfile"));
  const last = stages.length - 1;
  const runs = instructions.filter((i) => i.keyword === "RUN").map((i) => i.args);
  const final = (keyword: string) => instructions.filter((i) => i.stage === last && i.keyword === keyword);
  const exec = (args: string) => JSON.parse(args.replace(/^CMD\s+/, "")) as string[];

  it("builds in a stage of its own with CI's install and package.json's build", () => {
    expect(stages.length).toBeGreaterThanOrEqual(2);
    expect(instructions.some((i) => i.stage === 0 && i.keyword === "FROM" && /\bnode:24\b|\$\{NODE_IMAGE\}/.test(i.args))).toBe(true);
    expect(/^ARG NODE_IMAGE=node:24[-.\w]*$/m.test(read("Dockerfile"))).toBe(true);
    // CI installs with `npm ci` (.ci/run); the image does the same, then `npm run build`.
    expect(read(".ci/run")).toMatch(/\bnpm ci\b/);
    expect(runs.some((r) => /(^|&& )npm ci( |$)/.test(r))).toBe(true);
    expect(pkg.scripts.build).toBeDefined();
    expect(runs.some((r) => /(^|&& )npm run build( |$)/.test(r))).toBe(true);
    expect(final("COPY").some((c) => c.args.startsWith(`--from=${stages[0]} `))).toBe(true);
  });

  it("starts with package.json's serve command, as an unprivileged user", () => {
    const cmd = final("CMD");
    expect(cmd).toHaveLength(1);
    expect(startsLikeServe(exec(cmd[0]!.args))).toBe(true);
    expect(final("ENTRYPOINT")).toEqual([]);
    const user = final("USER").at(-1)?.args;
    expect(user).toBeDefined();
    expect(["root", "0"]).not.toContain(user);
    // Whatever the serve script sets before its command, the image sets too.
    const env = dockerEnv(instructions, last);
    for (const [name, value] of Object.entries(serveCommand().env)) expect(env[name]).toBe(value);
  });

  it("sets only variables the application (or npm) reads, valid for it", () => {
    const env = dockerEnv(instructions, last);
    expect(unknownVariables(env, (name) => /^NPM_CONFIG_/i.test(name) || isNpmSetting(name) || isRuntimeSetting(name))).toEqual([]);
    const appEnv = Object.fromEntries(Object.entries(env).filter(([name]) => isKnownVariable(name)));
    expect(() => parseEnv(appEnv)).not.toThrow();
  });

  it("keeps DATA_DIR on a volume and checks /healthz on the port it exposes", () => {
    const env = dockerEnv(instructions, last);
    expect(final("VOLUME").map((v) => JSON.parse(v.args) as string[]).flat()).toContain(env.DATA_DIR);
    const port = Number(env.PORT ?? defaultPort);
    expect(port).toBe(defaultPort);
    expect(final("EXPOSE").map((e) => Number(e.args))).toEqual([port]);
    const health = final("HEALTHCHECK");
    expect(health).toHaveLength(1);
    // The path the probe fetches, exactly: /healthz, a route of the app.
    expect(/:' \+ \(process\.env\.PORT \|\| (\d+)\) \+ '(\/[^']*)'/.exec(health[0]!.args)?.slice(1)).toEqual([String(defaultPort), "/healthz"]);
    expect(hasRoute("/healthz")).toBe(true);
  });
});

// ---- systemd -------------------------------------------------------------------------------------

describe("deploy/reseau-transmission.service", () => {
  const unit = read("deploy/reseau-transmission.service");
  const service = unitEntries(unit, "Service");
  const values = (key: string) => service.filter(([k]) => k === key).map(([, v]) => v);

  it("starts with package.json's serve command", () => {
    const [execStart] = values("ExecStart");
    expect(execStart).toBeDefined();
    expect(startsLikeServe(execStart!.split(/\s+/))).toBe(true);
  });

  it("sets and loads only variables the application (or npm) reads, and the example passes validation", () => {
    const environment = Object.fromEntries(values("Environment").map((v) => v.split(/=(.*)/s, 2) as [string, string]));
    expect(unknownVariables(environment, isNpmSetting)).toEqual([]);
    const [envFile] = values("EnvironmentFile");
    const example = `deploy/${path.basename(envFile!)}.example`;
    expect(existsSync(path.join(root, example))).toBe(true);
    const fromFile = parseEnvFile(read(example));
    expect(unknownVariables(fromFile)).toEqual([]);
    // EnvironmentFile= wins over Environment= (systemd.exec).
    const env = { ...Object.fromEntries(Object.entries(environment).filter(([n]) => !isNpmSetting(n))), ...fromFile };
    const parsed = parseEnv(env);
    expect(parsed.APP_URL).toMatch(/^https:\/\//);
    expect(values("StateDirectory")[0]).toBe(path.basename(environment.DATA_DIR!));
  });

  // systemd's own parser, where it is installed: an unknown key or a malformed value is reported.
  const analyze = spawnSync("systemd-analyze", ["--version"], { encoding: "utf8" });
  it.skipIf(analyze.status !== 0)("passes systemd-analyze verify without a remark", () => {
    const r = spawnSync("systemd-analyze", ["verify", path.join(root, "deploy/reseau-transmission.service")], { encoding: "utf8" });
    expect(r.stderr.trim()).toBe("");
    expect(r.status).toBe(0);
  });

  it("waits for the server's drain before killing it", () => {
    // server.ts: DRAIN_MS, then a forced exit 5 s later.
    const drainMs = Number(/const DRAIN_MS = ([\d_]+);/.exec(read("server.ts"))![1]!.replace(/_/g, ""));
    expect(Number(values("TimeoutStopSec")[0])).toBeGreaterThan(drainMs / 1000 + 5);
    const compose = loadCompose();
    for (const [, s] of appServices(compose)) {
      expect(Number.parseInt(String((s as { stop_grace_period?: string }).stop_grace_period), 10)).toBeGreaterThan(drainMs / 1000 + 5);
    }
  });
});
