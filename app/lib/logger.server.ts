import pino from "pino";

const level = process.env.LOG_LEVEL ?? (process.env.NODE_ENV === "test" ? "silent" : "info");

export const logger = pino({
  level,
  base: undefined,
  redact: {
    paths: ["password", "*.password", "headers.cookie", "*.headers.cookie", "token", "*.token"],
    censor: "[redacted]",
  },
});
