// What server.ts uses of the app. It reaches these through the server build
// (`build.entry.module.serverModules`, exported by entry.server.tsx) rather than by importing
// them, so that the Express wiring and the routes share one instance of each module: the caches
// server.ts creates are the ones the routes read, its request scope the one their queries count
// in, its drain flag the one /readyz reports.
export { closeDatabase } from "./db/client.server";
export { startDigestJob } from "./features/account/digests.server";
export { startExpiryReminderJob } from "./features/mandates/expiry-reminders.server";
export { closeLiveNotifications, liveStreamCount } from "./features/notifications/live.server";
export { startNotificationPurgeJob } from "./features/notifications/notifications.server";
export { startReputationJob } from "./features/trust/ratings.server";
export { startInsuranceReminderJob } from "./features/trust/verification.server";
export { availabilityMiddleware, startDraining } from "./lib/availability.server";
export { boot } from "./lib/boot.server";
export { caches, startCaches, touchesPublicContent } from "./lib/cache.server";
export { contentSecurityPolicy } from "./lib/csp.server";
export { EnvError, listenUrl } from "./lib/env.server";
export { logger } from "./lib/logger.server";
export { installMetrics } from "./lib/metrics/install.server";
export { pageCacheMiddleware } from "./lib/page-cache.server";
export { privateResponses, resourceDataRedirect } from "./lib/private-responses.server";
export { readAfterWriteCookie } from "./lib/read-after-write";
export { currentRequestScope, withRequestScope } from "./lib/request-scope.server";
