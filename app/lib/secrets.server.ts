// The signing secret: BETTER_AUTH_SECRET when set, else generated once into the data dir.
// Never a constant in the code. Several instances must share it: set it explicitly then.
import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { getEnv } from "./env.server";

let secret: string | undefined;

export function getAppSecret(): string {
  if (secret) return secret;
  const env = getEnv();
  if (env.BETTER_AUTH_SECRET) {
    secret = env.BETTER_AUTH_SECRET;
    return secret;
  }
  const file = path.resolve(env.DATA_DIR, "secret.key");
  if (existsSync(file)) {
    secret = readFileSync(file, "utf8").trim();
  } else {
    mkdirSync(path.dirname(file), { recursive: true });
    secret = randomBytes(32).toString("hex");
    writeFileSync(file, secret + "\n", { mode: 0o600 });
  }
  return secret;
}
