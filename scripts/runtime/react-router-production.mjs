// `node --import ./scripts/runtime/react-router-production.mjs`: the production server loads
// React Router's production files (decision 024). Its package exports name only
// `dist/development` under Node (remix-run/react-router#14102), whose one difference is
// ENABLE_DEV_WARNINGS = true: warnings whose messages are built on every render. The hook below
// sends the package's two entry points to their `dist/production` twins; the chunks they import
// follow by relative paths, so one process still holds one copy of React Router.
import { register } from "node:module";

register("./react-router-production-hooks.mjs", import.meta.url);
