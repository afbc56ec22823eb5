import { createECDH, randomBytes } from "node:crypto";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import webpush from "web-push";
import { describe, expect, it } from "vitest";
import { createPushTransport, retryAfterSeconds } from "./push-transport.js";

const browserKeys = () => {
  const ecdh = createECDH("prime256v1");
  ecdh.generateKeys();
  return { p256dh: ecdh.getPublicKey("base64url"), auth: randomBytes(16).toString("base64url") };
};

describe("push transport", () => {
  it("reads Retry-After as seconds or as an HTTP date", () => {
    const now = new Date("2026-08-01T10:00:00.000Z");
    expect(retryAfterSeconds("120", now)).toBe(120);
    expect(retryAfterSeconds(" 3 ", now)).toBe(3);
    expect(retryAfterSeconds("Sat, 01 Aug 2026 10:00:30 GMT", now)).toBe(30);
    expect(retryAfterSeconds("Sat, 01 Aug 2026 09:00:00 GMT", now)).toBe(0);
    expect(retryAfterSeconds("soon", now)).toBeNull();
    expect(retryAfterSeconds(undefined, now)).toBeNull();
  });

  it("refuses loopback and private endpoints in production before connecting, for good", async () => {
    let connections = 0;
    const server = createServer((_req, res) => void (connections++, res.writeHead(201).end()));
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const port = (server.address() as AddressInfo).port;
    try {
      const transport = createPushTransport({
        vapid: webpush.generateVAPIDKeys(),
        subject: "mailto:ops@clinic.example",
        policy: { allowPrivate: false, allowedHosts: [] },
      });
      for (const endpoint of [`http://127.0.0.1:${port}/push/1`, `http://localhost:${port}/push/1`]) {
        const result = await transport.send({ endpoint, keys: browserKeys() }, '{"title":"x"}', { ttlSeconds: 60 });
        expect(result, endpoint).toMatchObject({
          statusCode: null,
          permanent: true,
          error: expect.stringContaining("refused"),
        });
      }
      expect(connections).toBe(0);
      const allowed = createPushTransport({
        vapid: webpush.generateVAPIDKeys(),
        subject: "mailto:ops@clinic.example",
        policy: { allowPrivate: false, allowedHosts: ["localhost"] },
      });
      expect(
        (
          await allowed.send({ endpoint: `http://localhost:${port}/push/1`, keys: browserKeys() }, '{"title":"x"}', {
            ttlSeconds: 60,
          })
        ).statusCode,
      ).toBe(201);
      expect(connections).toBe(1);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it("reports keys that cannot encrypt as permanent, without sending", async () => {
    const transport = createPushTransport({
      vapid: webpush.generateVAPIDKeys(),
      subject: "mailto:ops@clinic.example",
      policy: { allowPrivate: true, allowedHosts: [] },
    });
    const result = await transport.send(
      { endpoint: "http://127.0.0.1:9/push", keys: { p256dh: "AAAA", auth: "AAAA" } },
      "{}",
      { ttlSeconds: 60 },
    );
    expect(result).toMatchObject({ statusCode: null, permanent: true, error: expect.stringMatching(/^not sent: /) });
  });
});
