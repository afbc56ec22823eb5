import type { AddressInfo } from "node:net";
import type { FetchHandler } from "@openpractice/http";
import { createH3NodeServer } from "@openpractice/h3";
import { TOKENS } from "@openpractice/runtime";
import type { Server } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestRuntime, type TestRuntime } from "../support/runtime-fixture.js";

/** The URLs the page names (stylesheet, scripts), as a browser resolves them against the page's address. */
function assetUrls(html: string, pageUrl: string): string[] {
  return [...html.matchAll(/<(?:link|script)\b[^>]*\b(?:href|src)="([^"]+)"/g)].map(
    (m) => new URL(m[1] as string, pageUrl).href,
  );
}

/**
 * The reference page loads with its files at /docs and /docs/ (which redirects to /docs), at the root, under the
 * h3 adapter's prefix and behind a proxy that strips its prefix and says so (X-Forwarded-Prefix): every file the
 * page names, and the OpenAPI document its script asks for, is fetched from where a browser would resolve it.
 */
describe("the API reference page", () => {
  let rt: TestRuntime;
  let mounted: Server;
  let mountedUrl: string;

  beforeAll(async () => {
    rt = await startTestRuntime();
    const handler = rt.runtime.container.resolve<FetchHandler>(TOKENS.HttpHandler);
    mounted = createH3NodeServer(handler, { prefix: "/emr" });
    await new Promise<void>((resolve) => mounted.listen(0, "127.0.0.1", resolve));
    mountedUrl = `http://127.0.0.1:${(mounted.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await new Promise<void>((resolve) => mounted?.close(() => resolve()));
    await rt?.stop();
  });

  /** Loads the page at `url` as a browser does (following a redirect) and every file it names; returns the page's address. */
  async function loadPage(url: string) {
    const page = await fetch(url);
    expect(page.status, url).toBe(200);
    expect(page.headers.get("content-type")).toContain("text/html");
    const html = await page.text();
    const pageUrl = page.url;
    const assets = assetUrls(html, pageUrl);
    expect(assets.length).toBe(3);
    for (const asset of assets) {
      const res = await fetch(asset);
      expect(res.status, `${asset} named by ${pageUrl}`).toBe(200);
      expect(res.headers.get("content-type"), asset).toMatch(/^(text\/css|text\/javascript)/);
      const text = await res.text();
      expect(text.length, asset).toBeGreaterThan(100);
      // The init script asks for openapi.json relative to the page.
      if (asset.endsWith("reference-init.js")) {
        expect(text).toContain('new URL("openapi.json", document.baseURI)');
        const doc = await fetch(new URL("openapi.json", pageUrl).href);
        expect(doc.status).toBe(200);
        expect((await doc.json()).openapi).toBe("3.1.0");
      }
    }
    return pageUrl;
  }

  it("at /docs and /docs/ (redirected to /docs) at the root", async () => {
    expect(await loadPage(`${rt.url}/docs`)).toBe(`${rt.url}/docs`);
    const slash = await fetch(`${rt.url}/docs/`, { redirect: "manual" });
    expect(slash.status).toBe(301);
    expect(slash.headers.get("location")).toBe("../docs");
    expect(await loadPage(`${rt.url}/docs/`)).toBe(`${rt.url}/docs`);
    expect(await loadPage(`${rt.url}/docs/?x=1`)).toBe(`${rt.url}/docs?x=1`);
  });

  it("under the h3 adapter's prefix", async () => {
    expect(await loadPage(`${mountedUrl}/emr/docs`)).toBe(`${mountedUrl}/emr/docs`);
    expect(await loadPage(`${mountedUrl}/emr/docs/`)).toBe(`${mountedUrl}/emr/docs`);
  });

  it("behind a proxy that strips its prefix: the page's URLs stay under it", async () => {
    // What the proxy does: the browser asks for /openpractice/…, the runtime is sent the rest.
    const viaProxy = (u: string) => u.replace("/openpractice/", "/");
    const first = await fetch(`${rt.url}/docs/`, {
      redirect: "manual",
      headers: { "x-forwarded-prefix": "/openpractice" },
    });
    const browserSees = new URL(first.headers.get("location")!, `${rt.url}/openpractice/docs/`).href;
    expect(browserSees).toBe(`${rt.url}/openpractice/docs`);
    const page = await fetch(viaProxy(browserSees), { headers: { "x-forwarded-prefix": "/openpractice" } });
    const html = await page.text();
    for (const asset of assetUrls(html, browserSees)) {
      expect(asset.startsWith(`${rt.url}/openpractice/docs/assets/`)).toBe(true);
      expect((await fetch(viaProxy(asset))).status).toBe(200);
    }
  });
});
