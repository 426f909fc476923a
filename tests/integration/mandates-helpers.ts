// Helpers of the mandate, matching and connection tests: a signed-in "browser" (better-auth
// session cookie), route loaders and actions called the way React Router calls them, and the
// flash toast of a redirect.
import { getAuth } from "~/auth/auth.server";
import { addDaysIso, parisToday } from "~/features/mandates/mandate-rules";
import type { MandateInput } from "~/features/mandates/mandates.schema";
import { type Toast, getToast } from "~/lib/toast.server";
import type { CreatedMember } from "../support/factories";
import { AppError } from "~/lib/errors/app-error";
import { expectedStatus, httpFailure } from "~/lib/errors/http";

export type Browser = { headers: Headers };

function cookieHeader(setCookies: string[], previous = ""): string {
  const jar = new Map<string, string>();
  for (const part of previous.split(";").map((p) => p.trim()).filter(Boolean)) {
    const i = part.indexOf("=");
    jar.set(part.slice(0, i), part.slice(i + 1));
  }
  for (const c of setCookies) {
    const [pair] = c.split(";").map((p) => p.trim());
    const i = pair.indexOf("=");
    jar.set(pair.slice(0, i), pair.slice(i + 1));
  }
  return [...jar].map(([k, v]) => `${k}=${v}`).join("; ");
}

export async function signIn(m: CreatedMember): Promise<Browser> {
  const b: Browser = { headers: new Headers({ "x-rt-client-ip": "203.0.113.9" }) };
  const { headers } = await getAuth().api.signInEmail({
    body: { email: m.email, password: m.password },
    headers: b.headers,
    returnHeaders: true,
  });
  b.headers.set("cookie", cookieHeader(headers.getSetCookie()));
  return b;
}

type Args = { request: Request; params: Record<string, string>; context: { requestId: string } };

/** Runs a loader like React Router would; a thrown Response or data() comes back as `thrown`. */
export async function runLoader<T>(
  loader: (args: never) => Promise<T>,
  path: string,
  b: Browser,
  params: Record<string, string> = {},
): Promise<{ value?: T; thrown?: unknown }> {
  const request = new Request(`http://localhost:3000${path}`, { headers: b.headers });
  try {
    return { value: await loader({ request, params, context: { requestId: "test" } } satisfies Args as never) };
  } catch (thrown) {
    return { thrown };
  }
}

/** Runs an action with form fields (repeated keys allowed). */
export async function runAction(
  action: (args: never) => Promise<unknown>,
  path: string,
  b: Browser,
  fields: Record<string, string | string[]>,
): Promise<{ value?: unknown; thrown?: unknown }> {
  const body = new URLSearchParams();
  for (const [k, v] of Object.entries(fields)) for (const one of Array.isArray(v) ? v : [v]) body.append(k, one);
  const request = new Request(`http://localhost:3000${path}`, { method: "POST", headers: b.headers, body });
  try {
    return { value: await action({ request, params: {}, context: { requestId: "test" } } satisfies Args as never) };
  } catch (thrown) {
    return { thrown };
  }
}

/** HTTP status of a returned or thrown Response / data(), or of a service's AppError as the edge maps it. */
export function statusOf(outcome: unknown): number {
  if (outcome instanceof Response) return outcome.status;
  if (outcome instanceof AppError) return expectedStatus(outcome) ?? 500;
  if (outcome && typeof outcome === "object" && "init" in outcome) {
    return (outcome as { init?: { status?: number } | null }).init?.status ?? 200;
  }
  return 200;
}

/** The flash toast set by a redirect or a data() response. */
export async function toastOf(outcome: unknown): Promise<Toast | null> {
  let headers: Headers | undefined;
  if (outcome instanceof Response) headers = outcome.headers;
  else if (outcome && typeof outcome === "object" && "init" in outcome) {
    const init = (outcome as { init?: ResponseInit | null }).init;
    headers = init?.headers ? new Headers(init.headers) : undefined;
  }
  const cookie = headers?.getSetCookie().map((c) => c.split(";")[0]).join("; ");
  if (!cookie) return null;
  const { toast } = await getToast(new Request("http://localhost:3000/", { headers: { cookie } }));
  return toast;
}

/** Redirect target of a Response. */
export function locationOf(outcome: unknown): string | null {
  return outcome instanceof Response ? outcome.headers.get("location") : null;
}

/** The data() body of an action result (or of a service's AppError as the edge answers it), or the plain object. */
export function bodyOf<T>(outcome: unknown): T {
  if (outcome instanceof AppError) return httpFailure(outcome).body as T;
  if (outcome && typeof outcome === "object" && "init" in outcome && "data" in outcome) return (outcome as { data: T }).data;
  return outcome as T;
}

/** A valid mandate (buyer by default), as the form would produce it. */
export function mandateInput(overrides: Partial<MandateInput> = {}): MandateInput {
  return {
    mandateType: "buyer",
    isExclusive: true,
    startDate: parisToday(),
    endDate: addDaysIso(parisToday(), 90),
    clientCode: "TST-01",
    clientName: "Client Test SAS",
    clientAddress: "1 rue du Test, 75001 Paris",
    description: null,
    searchSectors: ["C"],
    searchTerritories: ["75"],
    targetAmountMin: 100_000,
    targetAmountMax: 900_000,
    contributionMin: null,
    contributionMax: null,
    maUsage: null,
    companySector: null,
    companyTerritory: null,
    companyDescription: null,
    valuationAmount: null,
    requiredContributionMin: null,
    requiredContributionMax: null,
    projectTimeline: null,
    targetBuyerTypes: null,
    ...overrides,
  };
}

/** The fields that make mandateInput() a seller mandate (sector C, Paris, 500 000 €). */
export const sellerFields = {
  mandateType: "seller" as const,
  searchSectors: null,
  searchTerritories: null,
  targetAmountMin: null,
  targetAmountMax: null,
  companySector: "C",
  companyTerritory: "75",
  valuationAmount: 500_000,
};
