// The notification centre's one form (the page and the bell): open one (marked read, then its
// link), mark one read, mark all read.
import { z } from "zod";

export const notificationActionSchema = z.discriminatedUnion("intent", [
  z.object({ intent: z.literal("open"), id: z.uuid({ error: "Notification introuvable" }) }),
  z.object({ intent: z.literal("read"), id: z.uuid({ error: "Notification introuvable" }) }),
  z.object({ intent: z.literal("read-all") }),
]);

export const NOTIFICATIONS_PATH = "/dashboard/notifications";
export const NOTIFICATIONS_API = "/api/notifications";
export const NOTIFICATIONS_STREAM = "/api/notifications/stream";
