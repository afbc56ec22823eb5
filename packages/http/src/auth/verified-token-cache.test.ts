import { generateKeyPairSync } from "node:crypto";
import jwt from "jsonwebtoken";
import { afterEach, describe, expect, it, vi } from "vitest";
import { createJwtAuthenticator } from "./jwt-authenticator.js";
import { VERIFIED_TOKEN_MAX_AGE_MS, VerifiedTokenCache } from "./verified-token-cache.js";

const T0 = Date.UTC(2026, 10, 26, 8, 0, 0);
const exp = T0 / 1000 + 600;

describe("VerifiedTokenCache", () => {
  it("keeps a token until exp plus the clock tolerance, as jose counts it", () => {
    const cache = new VerifiedTokenCache(10, 30);
    cache.remember("a", { exp: T0 / 1000 + 60 }, T0);
    expect(cache.get("a", T0 + 89_999)).toEqual({ exp: T0 / 1000 + 60 });
    expect(cache.get("a", T0 + 90_000)).toBeUndefined();
    // Gone for good, not only hidden.
    expect(cache.size).toBe(0);
  });

  it("keeps a long-lived token at most the maximum age, then asks for a full verification", () => {
    const cache = new VerifiedTokenCache(10, 0);
    cache.remember("a", { exp: T0 / 1000 + 24 * 3600 }, T0);
    expect(cache.get("a", T0 + VERIFIED_TOKEN_MAX_AGE_MS - 1)).toBeDefined();
    expect(cache.get("a", T0 + VERIFIED_TOKEN_MAX_AGE_MS)).toBeUndefined();
  });

  it("drops the oldest entry when full, and remembers nothing at size 0 or without exp", () => {
    const cache = new VerifiedTokenCache(2, 0);
    for (const token of ["a", "b", "c"]) cache.remember(token, { exp }, T0);
    expect([cache.get("a", T0), cache.get("b", T0), cache.get("c", T0)].map(Boolean)).toEqual([false, true, true]);
    const off = new VerifiedTokenCache(0, 0);
    off.remember("a", { exp }, T0);
    const noExp = new VerifiedTokenCache(2, 0);
    noExp.remember("a", {}, T0);
    expect([off.size, noExp.size]).toEqual([0, 0]);
    expect(() => new VerifiedTokenCache(-1, 0)).toThrow(RangeError);
  });
});

describe("the JWT authenticator's verified tokens", () => {
  afterEach(() => vi.restoreAllMocks());
  // Tokens from jsonwebtoken and node:crypto, independent of jose; every signature check goes through WebCrypto.
  const ec = generateKeyPairSync("ec", { namedCurve: "P-256" });
  const localJwks = { keys: [{ ...ec.publicKey.export({ format: "jwk" }), kid: "k1", alg: "ES256", use: "sig" }] };
  const claims = { organisation_id: 7, user_id: 3, scope: "read" };
  const sign = (extra: object = {}) =>
    jwt.sign({ ...claims, ...extra }, ec.privateKey, { algorithm: "ES256", keyid: "k1", expiresIn: "5m" });
  const request = (token: string) => new Request("http://x/", { headers: { authorization: `Bearer ${token}` } });

  it("checks a token's signature once, and every other token's (a changed signature is refused)", async () => {
    const verify = vi.spyOn(crypto.subtle, "verify");
    const auth = createJwtAuthenticator({ localJwks });
    const token = sign();
    for (let i = 0; i < 5; i++) expect((await auth.authenticate(request(token))).organisationId).toBe(7);
    expect(verify).toHaveBeenCalledTimes(1);
    expect((await auth.authenticate(request(sign({ user_id: 4 })))).userId).toBe(4);
    expect(verify).toHaveBeenCalledTimes(2);
    const last = token.at(-2) === "A" ? "B" : "A";
    const forged = `${token.slice(0, -2)}${last}${token.at(-1)}`;
    await expect(auth.authenticate(request(forged))).rejects.toMatchObject({ code: "UNAUTHORIZED" });
    await expect(auth.authenticate(request(forged))).rejects.toMatchObject({ code: "UNAUTHORIZED" });
    expect(verify).toHaveBeenCalledTimes(4);
  });

  it("verifies every request in full with verifiedTokenCacheSize 0", async () => {
    const verify = vi.spyOn(crypto.subtle, "verify");
    const auth = createJwtAuthenticator({ localJwks, verifiedTokenCacheSize: 0 });
    const token = sign();
    for (let i = 0; i < 3; i++) await auth.authenticate(request(token));
    expect(verify).toHaveBeenCalledTimes(3);
  });

  it("refuses a remembered token once it expires, with jose's reason", async () => {
    vi.useFakeTimers({ now: Date.now(), toFake: ["Date"] });
    try {
      const auth = createJwtAuthenticator({ localJwks, clockToleranceSeconds: 0 });
      const token = sign();
      await auth.authenticate(request(token));
      vi.setSystemTime(Date.now() + 5 * 60_000 + 1_000);
      await expect(auth.authenticate(request(token))).rejects.toMatchObject({
        code: "UNAUTHORIZED",
        details: { reason: "token has expired" },
      });
    } finally {
      vi.useRealTimers();
    }
  });

  it("does not remember a token whose claims are refused", async () => {
    const verify = vi.spyOn(crypto.subtle, "verify");
    const auth = createJwtAuthenticator({ localJwks });
    const token = sign({ organisation_id: "none" });
    for (let i = 0; i < 2; i++)
      await expect(auth.authenticate(request(token))).rejects.toMatchObject({
        details: { reason: "token has no valid organisation_id claim" },
      });
    expect(verify).toHaveBeenCalledTimes(2);
  });
});
