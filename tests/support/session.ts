// Signs a factory member in through the real auth handler and returns the Cookie header a browser would send.
import { getAuth } from "~/auth/auth.server";
import type { CreatedMember } from "./factories";

export async function sessionCookie(m: Pick<CreatedMember, "email" | "password">, ip = "127.0.0.1"): Promise<string> {
  const res = await getAuth().api.signInEmail({
    body: { email: m.email, password: m.password },
    asResponse: true,
    headers: new Headers({ "x-rt-client-ip": ip }),
  });
  return res.headers
    .getSetCookie()
    .map((c) => c.split(";")[0])
    .join("; ");
}
