// Readiness: the database answers. 503 otherwise, so a load balancer stops routing here.
import { sql } from "drizzle-orm";
import { db } from "~/db/client.server";
import { logger } from "~/lib/logger.server";

export async function loader() {
  try {
    await Promise.race([
      db.execute(sql`select 1`),
      new Promise((_, reject) => setTimeout(() => reject(new Error("database timeout")), 2000)),
    ]);
    return Response.json({ status: "ready" }, { headers: { "cache-control": "no-store" } });
  } catch (error) {
    logger.warn({ err: error }, "readiness check failed");
    return Response.json(
      { status: "unavailable" },
      { status: 503, headers: { "cache-control": "no-store", "retry-after": "5" } },
    );
  }
}
