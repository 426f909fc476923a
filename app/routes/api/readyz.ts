// Readiness: the database answers and the server is not shutting down. 503 otherwise, so that a
// load balancer stops routing here (during a graceful shutdown's drain as during an outage).
import { sql } from "drizzle-orm";
import { db } from "~/db/client.server";
import { isDraining, RETRY_AFTER_SECONDS } from "~/lib/availability.server";
import { logger } from "~/lib/logger.server";

const TIMEOUT_MS = 2000;

function unavailable(status: "draining" | "unavailable") {
  return Response.json(
    { status },
    { status: 503, headers: { "cache-control": "no-store", "retry-after": String(RETRY_AFTER_SECONDS) } },
  );
}

export async function loader() {
  if (isDraining()) return unavailable("draining");
  let timer: NodeJS.Timeout | undefined;
  try {
    await Promise.race([
      db.execute(sql`select 1`),
      new Promise((_, reject) => {
        timer = setTimeout(() => reject(new Error("database timeout")), TIMEOUT_MS);
      }),
    ]);
    return Response.json({ status: "ready" }, { headers: { "cache-control": "no-store" } });
  } catch (error) {
    logger.warn({ err: error }, "readiness check failed");
    return unavailable("unavailable");
  } finally {
    clearTimeout(timer);
  }
}
