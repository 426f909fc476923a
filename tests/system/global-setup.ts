// The system tests run the production build: the one `.ci/run` or the browser tests just made
// when it is current, else a fresh one (scripts/production-build.ts; SYSTEM_REBUILD=1 forces it).
import { ensureProductionBuild } from "../../scripts/production-build";

export default async function setup() {
  await ensureProductionBuild();
}
