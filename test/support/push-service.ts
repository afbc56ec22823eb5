import { createECDH, randomBytes, randomUUID, type ECDH } from "node:crypto";
import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { decrypt } from "http_ece";
import { importJWK, jwtVerify, type JWTPayload } from "jose";

/** A browser's side of one subscription: the keys it hands out, and the private key only it has. */
export interface FakeBrowser {
  id: string;
  endpoint: string;
  keys: { p256dh: string; auth: string };
  ecdh: ECDH;
}

/** One push the service received and checked. */
export interface ReceivedPush {
  browserId: string;
  at: number;
  headers: IncomingHttpHeaders;
  /** The status we answered. */
  status: number;
  /** The VAPID JWT's verified claims and the key it named (k=). */
  vapid: { claims: JWTPayload; publicKey: string } | null;
  /** The payload as the browser decrypts it, parsed; null when the request failed our checks. */
  message: Record<string, unknown> | null;
  /** Why the request was refused (VAPID or decryption), if it was. */
  problem: string | null;
}

type Answer = { status: number; retryAfter?: string };

/**
 * A Web Push service on 127.0.0.1, as a browser vendor runs one: it checks
 * the VAPID Authorization header (`vapid t=<ES256 JWT>, k=<public key>`) with
 * jose, independently of web-push, for the endpoint's origin as audience, an
 * expiry in the future within 24 hours and a subject; then it decrypts the
 * aes128gcm body with the subscription's private key (http_ece), as the
 * browser would. Each endpoint answers 201 unless told otherwise.
 */
export class FakePushService {
  readonly received: ReceivedPush[] = [];
  private readonly browsers = new Map<string, FakeBrowser>();
  private readonly scripts = new Map<string, Answer[]>();
  private readonly always = new Map<string, Answer>();
  private server: Server | undefined;
  url = "";

  async start(): Promise<this> {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on("data", (c: Buffer) => chunks.push(c));
      req.on("end", () => {
        void this.receive(req.url ?? "/", req.headers, Buffer.concat(chunks)).then(({ status, retryAfter }) => {
          res.writeHead(status, retryAfter ? { "retry-after": retryAfter } : {}).end();
        });
      });
    });
    await new Promise<void>((resolve) => this.server!.listen(0, "127.0.0.1", resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this;
  }

  /** A new browser subscription on this service: a P-256 key pair and an auth secret made here, as a browser makes them. */
  subscribe(): FakeBrowser {
    const ecdh = createECDH("prime256v1");
    ecdh.generateKeys();
    const id = randomUUID();
    const browser = {
      id,
      endpoint: `${this.url}/push/${id}`,
      keys: { p256dh: ecdh.getPublicKey("base64url"), auth: randomBytes(16).toString("base64url") },
      ecdh,
    };
    this.browsers.set(id, browser);
    return browser;
  }

  /** The next answers of one endpoint, in order (then 201 again). */
  answer(browser: FakeBrowser, ...answers: Answer[]): void {
    this.scripts.set(browser.id, [...(this.scripts.get(browser.id) ?? []), ...answers]);
  }

  /** Every answer of one endpoint from now on. */
  answerAlways(browser: FakeBrowser, answer: Answer): void {
    this.always.set(browser.id, answer);
  }

  pushesTo(browser: FakeBrowser): ReceivedPush[] {
    return this.received.filter((r) => r.browserId === browser.id);
  }

  private async receive(path: string, headers: IncomingHttpHeaders, body: Buffer): Promise<Answer> {
    const browser = this.browsers.get(/^\/push\/([\w-]+)$/.exec(path)?.[1] ?? "");
    if (!browser) return { status: 404 };
    const record: ReceivedPush = {
      browserId: browser.id,
      at: Date.now(),
      headers,
      status: 0,
      vapid: null,
      message: null,
      problem: null,
    };
    const answer = await this.check(browser, record, body);
    // Listed only once checked, so a test that sees a push sees its outcome.
    this.received.push(record);
    return answer;
  }

  private async check(browser: FakeBrowser, record: ReceivedPush, body: Buffer): Promise<Answer> {
    const headers = record.headers;
    try {
      record.vapid = await this.verifyVapid(headers.authorization);
    } catch (error) {
      record.problem = `VAPID: ${(error as Error).message}`;
      record.status = 401;
      return { status: 401 };
    }
    try {
      if (headers["content-encoding"] !== "aes128gcm")
        throw new Error(`content-encoding is ${headers["content-encoding"]}`);
      if (!/^\d+$/.test(String(headers.ttl ?? ""))) throw new Error("no TTL header");
      record.message = JSON.parse(
        decrypt(body, { version: "aes128gcm", privateKey: browser.ecdh, authSecret: browser.keys.auth }).toString(
          "utf8",
        ),
      );
    } catch (error) {
      record.problem = `payload: ${(error as Error).message}`;
      record.status = 400;
      return { status: 400 };
    }
    const answer = this.scripts.get(browser.id)?.shift() ?? this.always.get(browser.id) ?? { status: 201 };
    record.status = answer.status;
    return answer;
  }

  /** RFC 8292: `vapid t=<JWT>, k=<key>`; the JWT is ES256 with the key k, aud the push service's origin, exp within 24 h, sub set. */
  private async verifyVapid(header: string | undefined): Promise<{ claims: JWTPayload; publicKey: string }> {
    const match = /^vapid t=([\w-]+\.[\w-]+\.[\w-]+), k=([\w-]+)$/.exec(header ?? "");
    if (!match) throw new Error(`Authorization is not 'vapid t=..., k=...': ${header}`);
    const [, token, k] = match as unknown as [string, string, string];
    const point = Buffer.from(k, "base64url");
    if (point.length !== 65 || point[0] !== 4) throw new Error("k is not an uncompressed P-256 point");
    const key = await importJWK(
      {
        kty: "EC",
        crv: "P-256",
        x: point.subarray(1, 33).toString("base64url"),
        y: point.subarray(33).toString("base64url"),
      },
      "ES256",
    );
    const { payload, protectedHeader } = await jwtVerify(token, key, {
      algorithms: ["ES256"],
      audience: this.url,
      requiredClaims: ["exp", "sub"],
    });
    if (protectedHeader.alg !== "ES256") throw new Error(`alg ${protectedHeader.alg}`);
    if ((payload.exp as number) > Date.now() / 1000 + 24 * 3600) throw new Error("exp more than 24 hours ahead");
    return { claims: payload, publicKey: k };
  }

  async stop(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }
}
