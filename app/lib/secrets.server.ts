// The signing secret: BETTER_AUTH_SECRET when set, else generated once into the data dir.
// Never a constant in the code. Several instances must share it: set it explicitly then.
import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { getEnv } from "./env.server";

const g = globalThis as unknown as { __rtSecret?: string };

export function getAppSecret(): string {
  if (g.__rtSecret) return g.__rtSecret;
  const env = getEnv();
  if (env.BETTER_AUTH_SECRET) {
    g.__rtSecret = env.BETTER_AUTH_SECRET;
    return g.__rtSecret;
  }
  const file = path.resolve(env.DATA_DIR, "secret.key");
  if (existsSync(file)) {
    g.__rtSecret = readFileSync(file, "utf8").trim();
  } else {
    mkdirSync(path.dirname(file), { recursive: true });
    g.__rtSecret = randomBytes(32).toString("hex");
    writeFileSync(file, g.__rtSecret + "\n", { mode: 0o600 });
  }
  return g.__rtSecret;
}
