import { data } from "react-router";
import { describe, expect, it } from "vitest";
import { AppError, APP_ERROR_CODES, type AppErrorCode } from "./app-error";
import { atEdge, expectedFailureResponse, expectedMessage, expectedStatus, httpFailure, retryAfterOf, STATUS_OF_CODE, toRouteError } from "./http";

const CASES: Array<[AppErrorCode, number]> = [
  ["invalid", 400],
  ["forbidden", 403],
  ["not-found", 404],
  ["conflict", 409],
  ["gone", 410],
  ["too-large", 413],
  ["unsupported-type", 415],
  ["unprocessable", 422],
  ["quota-reached", 403],
  ["rate-limited", 429],
  ["failed", 500],
  ["unavailable", 503],
];

type Thrown = { type: string; data: unknown; init: ResponseInit | null };

describe("the edge's mapping of domain errors", () => {
  it("covers every code once", () => {
    expect(CASES.map(([code]) => code).sort()).toEqual([...APP_ERROR_CODES].sort());
  });

  it.each(CASES)("answers %s with %i and its French message", (code, status) => {
    const error = new AppError(code, "Dossier introuvable");
    expect(STATUS_OF_CODE[code]).toBe(status);
    expect(expectedStatus(error)).toBe(status);
    expect(expectedMessage(error, "repli")).toBe("Dossier introuvable");
    const failure = httpFailure(error);
    expect(failure).toMatchObject({ status, body: { message: "Dossier introuvable" } });
    expect(failure.headers.get("retry-after")).toBeNull();
  });

  it("gives a rate-limited failure its Retry-After", () => {
    const error = new AppError("rate-limited", "Trop de messages envoyés.", { retryAfterSeconds: 120 });
    expect(retryAfterOf(error)).toBe("120");
    expect(httpFailure(error).headers.get("Retry-After")).toBe("120");
    expect(retryAfterOf(new AppError("rate-limited", "Trop de demandes."))).toBeNull();
  });

  it("keeps the details a client reads beside the message", () => {
    const error = new AppError("forbidden", "Signez d’abord l’engagement.", { details: { undertaking: true } });
    expect(httpFailure(error).body).toEqual({ message: "Signez d’abord l’engagement.", undertaking: true });
  });

  it("turns an AppError into React Router's data with the same status, headers and body", () => {
    const thrown = toRouteError(new AppError("rate-limited", "Trop de tentatives.", { retryAfterSeconds: 30 })) as Thrown;
    expect(thrown.data).toEqual({ message: "Trop de tentatives." });
    expect(thrown.init?.status).toBe(429);
    expect(new Headers(thrown.init?.headers).get("retry-after")).toBe("30");
  });

  it("leaves an unexpected error, a Response and a route's own data() as they are", () => {
    const bug = new Error("boom");
    const response = new Response(null, { status: 302 });
    const routeData = data({ message: "Authentification requise" }, { status: 401 });
    expect(toRouteError(bug)).toBe(bug);
    expect(toRouteError(response)).toBe(response);
    expect(toRouteError(routeData)).toBe(routeData);
    expect(expectedStatus(bug)).toBeNull();
    expect(expectedStatus(response)).toBe(302);
    expect(expectedStatus(routeData)).toBe(401);
    expect(expectedMessage(routeData, "repli")).toBe("Authentification requise");
    expect(expectedMessage(bug, "repli")).toBe("repli");
  });

  it("maps what a wrapped loader throws, and returns what it returns", async () => {
    const refusing = atEdge(async (id: string) => {
      if (id === "x") throw new AppError("not-found", "Mandat introuvable");
      return { id };
    });
    await expect(refusing("a")).resolves.toEqual({ id: "a" });
    const thrown = (await refusing("x").catch((e: unknown) => e)) as Thrown;
    expect(thrown.init?.status).toBe(404);
    expect(thrown.data).toEqual({ message: "Mandat introuvable" });
    const bug = new Error("boom");
    await expect(atEdge(() => Promise.reject(bug))()).rejects.toBe(bug);
  });

  it("answers a resource route's expected failure in plain French text, and rethrows a bug", async () => {
    const answer = expectedFailureResponse(new AppError("rate-limited", "Trop d’ouvertures.", { retryAfterSeconds: 60 }), "repli");
    expect(answer.status).toBe(429);
    expect(answer.headers.get("content-type")).toBe("text/plain; charset=utf-8");
    expect(answer.headers.get("cache-control")).toBe("no-store");
    expect(answer.headers.get("retry-after")).toBe("60");
    expect(await answer.text()).toBe("Trop d’ouvertures.");
    const fallback = expectedFailureResponse(new Response(null, { status: 404 }), "Dossier introuvable");
    expect([fallback.status, await fallback.text()]).toEqual([404, "Dossier introuvable"]);
    const bug = new Error("boom");
    expect(() => expectedFailureResponse(bug, "repli")).toThrow(bug);
  });
});
