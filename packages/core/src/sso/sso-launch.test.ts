import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { launchCodeHash, launchedScopes, launchUrl, newLaunchCode, verifierMatches } from "./sso-launch.js";
import { redirectUriIssues } from "../access/redirect-uri.js";

describe("SSO launch codes", () => {
  it("checks PKCE S256 as RFC 7636 appendix B computes it", () => {
    // RFC 7636 appendix B's example pair.
    const verifier = "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk";
    const challenge = "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM";
    expect(verifierMatches(verifier, challenge)).toBe(true);
    expect(verifierMatches(`${verifier.slice(0, -1)}l`, challenge)).toBe(false);
    expect(verifierMatches("short", challenge)).toBe(false);
    expect(verifierMatches(verifier, `${challenge}=`)).toBe(false);
  });

  it("makes 256-bit codes and keeps only their hash", () => {
    const { code, codeHash } = newLaunchCode();
    expect(code).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(codeHash).toBe(createHash("sha256").update(code).digest("hex"));
    expect(launchCodeHash(code)).toBe(codeHash);
    expect(newLaunchCode().code).not.toBe(code);
  });

  it("accepts https and loopback http redirect URIs only, without fragments or credentials", () => {
    expect(redirectUriIssues(Array.from({ length: 11 }, (_, i) => `https://a.example/${i}`))).toHaveLength(1);
    expect(redirectUriIssues(["https://emr.example.com/sso/callback", "http://127.0.0.1:8400/cb"])).toEqual([]);
    const bad = [
      "http://emr.example.com/cb",
      "https://emr.example.com/cb#x",
      "https://u:p@emr.example.com/cb",
      "cb",
      7,
    ];
    expect(redirectUriIssues(bad).map((i) => i.field)).toEqual([
      "redirectUris.0",
      "redirectUris.1",
      "redirectUris.2",
      "redirectUris.3",
      "redirectUris.4",
    ]);
  });

  it("adds the code and state to the redirect URI's own query", () => {
    expect(launchUrl("https://emr.example.com/cb?tenant=4", "abc", "s 1")).toBe(
      "https://emr.example.com/cb?tenant=4&code=abc&state=s+1",
    );
    expect(launchUrl("https://emr.example.com/cb", "abc", undefined, "https://api.example.com")).toBe(
      "https://emr.example.com/cb?code=abc&iss=https%3A%2F%2Fapi.example.com",
    );
  });

  it("narrows the web app's scopes to both tokens' intersection", () => {
    expect(launchedScopes(["read", "write", "notes:write"], ["read", "notes:write", "admin"])).toEqual([
      "read",
      "notes:write",
    ]);
  });
});
