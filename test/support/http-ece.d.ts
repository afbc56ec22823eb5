// http_ece ships no types; the test push service only decrypts (RFC 8188 aes128gcm, RFC 8291 keys).
declare module "http_ece" {
  import type { ECDH } from "node:crypto";
  export function decrypt(
    buffer: Buffer,
    params: { version: "aes128gcm"; privateKey: ECDH; authSecret: string | Buffer },
  ): Buffer;
}
