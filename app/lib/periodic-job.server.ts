// A background job run shortly after start, then every `intervalMs`, on every instance (the job
// itself must be safe to run concurrently: SKIP LOCKED claims, idempotent deletes). Its timers
// never keep the process alive; a failed run is logged and the next one comes as planned.
import { logger } from "./logger.server";
import { recordJobRun, registerJob } from "./metrics/signals.server";

export type PeriodicJob = { stop(): void };

export function startPeriodicJob(options: {
  name: string;
  intervalMs: number;
  initialDelayMs: number;
  /** Returns how many items it handled (logged when > 0). */
  run: () => Promise<number>;
}): PeriodicJob {
  let timer: NodeJS.Timeout | undefined;
  let stopped = false;
  const tick = async () => {
    try {
      const count = await options.run();
      recordJobRun(options.name, true);
      if (count > 0) logger.info({ count, job: options.name }, `${options.name}: done`);
    } catch (error) {
      recordJobRun(options.name, false);
      logger.error({ err: error, job: options.name }, `${options.name}: failed`);
    }
  };
  const schedule = (delay: number) => {
    if (stopped) return;
    timer = setTimeout(() => void tick().then(() => schedule(options.intervalMs)), delay);
    timer.unref();
  };
  registerJob(options.name, options.intervalMs);
  schedule(options.initialDelayMs);
  return {
    stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
    },
  };
}
