// Process start: environment, secret, database (with migrations), mail dispatcher.
import { hostname } from "node:os";
import { initDatabase, SERVER_STATEMENT_TIMEOUT_MS } from "~/db/client.server";
import { getEnv } from "./env.server";
import { logger } from "./logger.server";
import { createMailDispatcher, createSmtpTransport, LocalMailboxTransport } from "./mail/dispatcher.server";
import { getSealIdentity } from "./pdf/seal-identity.server";
import { getAppSecret } from "./secrets.server";

export async function boot() {
  const env = getEnv();
  getAppSecret();
  // A wrong SIGNING_P12 or password stops the start (EnvError naming it), not the first seal.
  if (env.SIGNING_P12) await getSealIdentity(env);
  const database = await initDatabase({
    url: env.DATABASE_URL,
    dataDir: env.DATA_DIR,
    poolMax: env.DATABASE_POOL_MAX,
    statementTimeoutMs: SERVER_STATEMENT_TIMEOUT_MS,
    readUrl: env.DATABASE_READ_URL,
    readPoolMax: env.DATABASE_READ_POOL_MAX,
    preparedStatements: env.DATABASE_PREPARED_STATEMENTS,
  });
  logger.info({ driver: database.driver, readReplica: Boolean(database.read) }, "database ready");
  if (env.DATABASE_READ_URL && !database.read) {
    logger.warn("DATABASE_READ_URL ignored: it replicates a PostgreSQL server (DATABASE_URL), not the embedded database");
  }
  const dispatcher = createMailDispatcher({
    transport: env.SMTP_URL ? createSmtpTransport(env.SMTP_URL) : new LocalMailboxTransport(),
    workerId: `${hostname()}:${process.pid}`,
    intervalMs: env.MAIL_DISPATCH_INTERVAL_MS,
    staleAfterMs: env.MAIL_CLAIM_TIMEOUT_MS,
  });
  dispatcher.start();
  return { env, database, dispatcher };
}
