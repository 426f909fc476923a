// /dev/caches (decision 048): the instance's caches with their sizes and hit rates, in
// development only; a 404 in every other mode.
import { afterEach, describe, expect, it, vi } from "vitest";
import { loader } from "~/routes/dev/caches";
import { installCache, uninstallCaches } from "../support/instance-cache";


afterEach(() => {
  vi.unstubAllEnvs();
  uninstallCaches();
});

describe("/dev/caches", () => {
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

  it("lists each cache with its size, hits and misses in development", () => {
    vi.stubEnv("NODE_ENV", "development");
    const cache = installCache("rankings");
    cache.store("k", [1], cache.lookup("k").generation);
    cache.lookup("k");
    expect(loader().caches).toEqual([expect.objectContaining({ name: "rankings", size: 1, hits: 1, misses: 1 })]);
  });
});
