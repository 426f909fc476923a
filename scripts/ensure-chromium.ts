// Browser tests need Debian's Chromium, preferably its headless shell. Find it; install it when we can (root + apt-get); otherwise
// stop with one line saying what to install.
import { execSync } from "node:child_process";
import { existsSync } from "node:fs";

import { CHROMIUM_CANDIDATES } from "./chromium-candidates";

function found() {
  const fromEnv = process.env.CHROMIUM_PATH;
  if (fromEnv && existsSync(fromEnv)) return fromEnv;
  return CHROMIUM_CANDIDATES.find((p) => existsSync(p));
}

let path = found();
if (!path) {
  const isRoot = typeof process.getuid === "function" && process.getuid() === 0;
  let hasApt: boolean;
  try {
    execSync("command -v apt-get", { stdio: "ignore" });
    hasApt = true;
  } catch {
    hasApt = false;
  }
  if (isRoot && hasApt) {
    console.log("Chromium introuvable : installation via apt-get (chromium-headless-shell)…");
    try {
      execSync("apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium-headless-shell", { stdio: "inherit" });
    } catch {
      // reported below
    }
    path = found();
  }
  if (!path) {
    console.error(
      "Chromium est requis pour les tests navigateur : installez le paquet Debian « chromium-headless-shell » (sudo apt-get install chromium-headless-shell) ou définissez CHROMIUM_PATH.",
    );
    process.exit(1);
  }
}
console.log(`Chromium : ${path}`);
