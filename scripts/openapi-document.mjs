// The OpenAPI document exactly as a server serves it at /openapi.json, built in process without a database or a
// listener: an in-memory practice and a token issuer (so the token endpoint and the key set are in it too). The
// client generator reads it; under vitest the same imports resolve to the packages' sources.
import { createPractice } from "@openpractice/core";
import { createHttpHandler, createTokenIssuer, generateSigningKey } from "@openpractice/http";
import { MemoryStorage, testPracticeKeys } from "@openpractice/testing";

/** The text of /openapi.json, byte for byte as served. */
export async function currentOpenApiText() {
  const practice = createPractice({ storage: new MemoryStorage(), keys: testPracticeKeys() });
  const handler = createHttpHandler({
    practice,
    tokenIssuer: createTokenIssuer({ keys: [await generateSigningKey()] }),
    authenticator: {
      authenticate: async () => {
        throw new Error("no token is needed for /openapi.json");
      },
    },
  });
  const response = await handler(new Request("http://127.0.0.1/openapi.json"));
  if (!response.ok) throw new Error(`/openapi.json answered ${response.status}`);
  return response.text();
}

/** @returns {Promise<Record<string, any>>} */
export async function currentOpenApiDocument() {
  return JSON.parse(await currentOpenApiText());
}
