import pino from "pino";

// A failed statement's values must never reach the logs: they can be a mandate's confidential
// client name and address, a message, an e-mail address… Drizzle puts them in its error message
// ("params: …") and in `params`, PostgreSQL in `detail` (key values), `where`, and in the text of
// some messages (`invalid input syntax for type …: "<value>"`). Database errors are logged with
// the SQL text (placeholders only), the SQLSTATE code and the names of the table, column and
// constraint involved; the same goes for a database error found as the cause of another error.
const DB_FIELDS = ["code", "severity", "schema", "table", "column", "dataType", "constraint", "routine"] as const;

type ErrorLike = Error & Record<string, unknown>;

const isError = (value: unknown): value is ErrorLike => value instanceof Error;
const isQueryError = (e: ErrorLike) => typeof e.query === "string" && "params" in e;
const isDriverError = (e: ErrorLike) => typeof e.code === "string" && /^[0-9A-Z]{5}$/.test(e.code) && "severity" in e;

function involvesDatabase(error: ErrorLike, depth = 0): boolean {
  if (depth > 8) return false;
  if (isQueryError(error) || isDriverError(error)) return true;
  if (isError(error.cause) && involvesDatabase(error.cause, depth + 1)) return true;
  return Array.isArray(error.errors) && error.errors.some((e) => isError(e) && involvesDatabase(e, depth + 1));
}

/** The stack frames without the header, which repeats the message (dropped when not found). */
function frames(error: Error): string {
  const stack = error.stack ?? "";
  const at = error.message ? stack.indexOf(error.message) : -1;
  if (at >= 0 && at <= 100) return stack.slice(at + error.message.length);
  const firstFrame = stack.search(/\n\s+at /);
  return !error.message && firstFrame >= 0 ? stack.slice(firstFrame) : "";
}

/** A copy of the error without the values of any failed statement (see above). */
function withoutStatementValues(error: ErrorLike, depth = 0): Error {
  let message: string;
  const fields: Record<string, unknown> = {};
  if (isDriverError(error)) {
    // pg and PGlite (which also attaches `query` and `params`).
    message = error.message.replace(/"[^"]*"/g, '"…"');
    for (const key of DB_FIELDS) if (error[key] !== undefined) fields[key] = error[key];
  } else if (isQueryError(error)) {
    message = `Failed query: ${String(error.query)}`;
    fields.query = error.query;
  } else {
    message = error.message;
    for (const key of Object.keys(error)) if (key !== "cause" && key !== "errors" && !isError(error[key])) fields[key] = error[key];
  }
  const copy = Object.assign(Object.create(Object.getPrototypeOf(error) as object) as Error, fields);
  Object.defineProperty(copy, "name", { value: error.name, enumerable: false });
  Object.defineProperty(copy, "message", { value: message, enumerable: false });
  Object.defineProperty(copy, "stack", { value: `${error.name}: ${message}${frames(error)}`, enumerable: false });
  if (depth < 8 && isError(error.cause)) {
    Object.defineProperty(copy, "cause", { value: withoutStatementValues(error.cause, depth + 1), enumerable: false });
  }
  if (depth < 8 && Array.isArray(error.errors)) {
    const errors = error.errors.map((e: unknown) => (isError(e) ? withoutStatementValues(e, depth + 1) : e));
    Object.defineProperty(copy, "errors", { value: errors, enumerable: false });
  }
  return copy;
}

function serializeError(value: unknown) {
  return pino.stdSerializers.err(isError(value) && involvesDatabase(value) ? (withoutStatementValues(value) as ErrorLike) : (value as ErrorLike));
}

export type LoggerOptions = {
  level?: string;
  /** Where the JSON lines go; standard output by default (tests pass an in-memory stream). */
  destination?: pino.DestinationStream;
};

export function createLogger(options: LoggerOptions = {}): pino.Logger {
  const config: pino.LoggerOptions = {
    level: options.level ?? process.env.LOG_LEVEL ?? (process.env.NODE_ENV === "test" ? "silent" : "info"),
    base: undefined,
    serializers: { err: serializeError },
    hooks: {
      // `logger.error(error)`: pino would take the raw message as the log message.
      logMethod(args, method) {
        const [first, ...rest] = args as unknown[];
        if (!isError(first) || !involvesDatabase(first)) return method.apply(this, args);
        const message = typeof rest[0] === "string" ? [] : [withoutStatementValues(first).message];
        return method.apply(this, [{ err: first }, ...message, ...rest] as unknown as Parameters<typeof method>);
      },
    },
    redact: {
      paths: ["password", "*.password", "headers.cookie", "*.headers.cookie", "token", "*.token"],
      censor: "[redacted]",
    },
  };
  return options.destination ? pino(config, options.destination) : pino(config);
}

export const logger = createLogger();
