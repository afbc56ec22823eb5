import { request } from "node:https";
import { rootCertificates } from "node:tls";
import { EligibilityGatewayError } from "@openpractice/core";
import { type Clearinghouse, DEFAULT_TIMEOUT_MS } from "./clearinghouse.js";
import { literalAddressProblem, publicAddressLookup } from "./public-address-lookup.js";

/** The longest 271 read: a real one is a few kilobytes. */
const MAX_RESPONSE_BYTES = 1_000_000;

/**
 * POSTs the 270 to the clearinghouse over HTTPS (basic authentication, Content-Type application/edi-x12) and
 * resolves with the 271 text. The whole exchange is bounded by the timeout: no answer in time is `timeout`; a
 * connection failure or an HTTP error status is `unavailable` (the 270 and any answer are kept on the error).
 */
export function postToClearinghouse(
  ch: Clearinghouse,
  body: string,
  options: { allowPrivateAddresses?: boolean } = {},
): Promise<string> {
  const url = new URL(ch.url);
  if (url.protocol !== "https:")
    return Promise.reject(
      new EligibilityGatewayError("not_configured", "the clearinghouse URL must be https://", body),
    );
  // An organisation's own clearinghouse reaches public addresses only (the operator's may be anywhere).
  const allowPrivate = options.allowPrivateAddresses ?? false;
  const literal = ch.tenantSupplied ? literalAddressProblem(url.hostname, allowPrivate) : undefined;
  if (literal)
    return Promise.reject(
      new EligibilityGatewayError("unavailable", `the clearinghouse was refused: ${literal}`, body),
    );
  const timeoutMs = ch.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  return new Promise((resolve, reject) => {
    const req = request(url, {
      method: "POST",
      headers: {
        "content-type": "application/edi-x12",
        "content-length": Buffer.byteLength(body),
        authorization: `Basic ${Buffer.from(`${ch.username}:${ch.password}`).toString("base64")}`,
      },
      // Extra authorities are added to the public ones (Node's `ca` alone would replace them).
      ...(ch.ca ? { ca: [...rootCertificates, ch.ca] } : {}),
      // A tenant's request never rides a pooled socket: the agent's pool key ignores `lookup`, so a kept-alive
      // connection to the operator's clearinghouse at the same host and port would skip the address check.
      ...(ch.tenantSupplied ? { lookup: publicAddressLookup(allowPrivate), agent: false } : {}),
    });
    const timer = setTimeout(() => {
      req.destroy();
      reject(new EligibilityGatewayError("timeout", `no answer from the clearinghouse within ${timeoutMs} ms`, body));
    }, timeoutMs);
    req.on("response", (res) => {
      const chunks: Buffer[] = [];
      let size = 0;
      res.on("data", (c: Buffer) => {
        size += c.length;
        if (size > MAX_RESPONSE_BYTES) {
          req.destroy();
          clearTimeout(timer);
          reject(new EligibilityGatewayError("invalid_response", "the clearinghouse's answer is over 1 MB", body));
        } else chunks.push(c);
      });
      res.on("end", () => {
        clearTimeout(timer);
        const text = Buffer.concat(chunks).toString("utf8");
        const status = res.statusCode ?? 0;
        if (status < 200 || status > 299)
          reject(
            new EligibilityGatewayError("unavailable", `the clearinghouse answered HTTP ${status}`, body, text || null),
          );
        else resolve(text);
      });
      res.on("error", (error) => {
        clearTimeout(timer);
        reject(new EligibilityGatewayError("unavailable", `reading the answer failed: ${error.message}`, body));
      });
    });
    req.on("error", (error) => {
      clearTimeout(timer);
      reject(
        new EligibilityGatewayError("unavailable", `the clearinghouse could not be reached: ${error.message}`, body),
      );
    });
    req.end(body);
  });
}
