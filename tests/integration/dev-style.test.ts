// /dev/style: the design system's components in every state, in development only; a 404 in
// every other mode.
import { afterEach, describe, expect, it, vi } from "vitest";
import { loader } from "~/routes/dev/style";

afterEach(() => {
  vi.unstubAllEnvs();
});

describe("/dev/style", () => {
  it.each(["production", "test"])("is a 404 when NODE_ENV is %s", (mode) => {
    vi.stubEnv("NODE_ENV", mode);
    let thrown: unknown;
    try {
      loader();
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(Response);
    expect((thrown as Response).status).toBe(404);
  });

  it("renders in development", () => {
    vi.stubEnv("NODE_ENV", "development");
    expect(loader()).toBeNull();
  });
});
