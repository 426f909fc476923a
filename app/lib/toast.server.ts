// Flash toasts: set by an action before a redirect, read (and cleared) by the root loader.
import { createCookieSessionStorage, redirect } from "react-router";
import { z } from "zod";
import { getEnv } from "./env.server";
import { getAppSecret } from "./secrets.server";

export const toastSchema = z.object({
  type: z.enum(["success", "error", "info"]).default("success"),
  title: z.string(),
  description: z.string().optional(),
});
export type Toast = z.infer<typeof toastSchema>;
export type ToastInput = z.input<typeof toastSchema>;

type FlashData = { toast: Toast };
let storage: ReturnType<typeof createCookieSessionStorage<Record<string, never>, FlashData>> | undefined;
function toastStorage() {
  storage ??= createCookieSessionStorage<Record<string, never>, FlashData>({
    cookie: {
      name: "rt_toast",
      path: "/",
      httpOnly: true,
      sameSite: "lax",
      secure: getEnv().APP_URL.startsWith("https://"),
      secrets: [getAppSecret()],
    },
  });
  return storage;
}

export async function createToastHeaders(toast: ToastInput): Promise<Headers> {
  const session = await toastStorage().getSession();
  session.flash("toast", toastSchema.parse(toast));
  return new Headers({ "set-cookie": await toastStorage().commitSession(session) });
}

export async function redirectWithToast(url: string, toast: ToastInput, init?: ResponseInit) {
  const headers = new Headers(init?.headers);
  const toastHeaders = await createToastHeaders(toast);
  headers.append("set-cookie", toastHeaders.get("set-cookie")!);
  return redirect(url, { ...init, headers });
}

export async function getToast(request: Request): Promise<{ toast: Toast | null; headers: Headers | null }> {
  const session = await toastStorage().getSession(request.headers.get("cookie"));
  const parsed = toastSchema.safeParse(session.get("toast"));
  const toast = parsed.success ? parsed.data : null;
  return { toast, headers: toast ? new Headers({ "set-cookie": await toastStorage().destroySession(session) }) : null };
}

export function combineHeaders(...all: Array<Headers | null | undefined>) {
  const out = new Headers();
  for (const h of all) h?.forEach((value, key) => out.append(key, value));
  return out;
}
