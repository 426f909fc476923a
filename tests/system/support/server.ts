// The production server as a child process for system tests (see scripts/bench/server.ts).
export { freePort, startServer, type RunningServer, type StartOptions } from "../../../scripts/bench/server";
