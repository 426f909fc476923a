// The development pages: /dev/caches (the instance's caches with their sizes and hit rates) and
// /dev/style (the design system's components in every state), in development only; a 404 in
// every other mode.
import { afterEach, describe, expect, it, vi } from "vitest";
import { loader as cachesLoader } from "~/routes/dev/caches";
import { loader as styleLoader } from "~/routes/dev/style";
import { installCache, uninstallCaches } from "../support/instance-cache";

afterEach(() => {
  vi.unstubAllEnvs();
  uninstallCaches();
});

describe.each([
  ["/dev/caches", cachesLoader],
  ["/dev/style", styleLoader],
] as const)("%s", (_path, loader) => {
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
});

describe("in development", () => {
  it("/dev/caches lists each cache with its size, hits and misses", () => {
    vi.stubEnv("NODE_ENV", "development");
    const cache = installCache("rankings");
    cache.store("k", [1], cache.lookup("k").generation);
    cache.lookup("k");
    expect(cachesLoader().caches).toEqual([expect.objectContaining({ name: "rankings", size: 1, hits: 1, misses: 1 })]);
  });

  it("/dev/style renders", () => {
    vi.stubEnv("NODE_ENV", "development");
    expect(styleLoader()).toBeNull();
  });
});
