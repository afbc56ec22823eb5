// The typed client in an integrator's project: test/packaging/pack-install.mjs type-checks this file there as an ES
// module and as CommonJS, under `module: nodenext` and `node16` (the package is dual; an ES-module-only package is
// refused there with TS1479). v1 data and v2 errors are typed from the OpenAPI document.
import { createOpenPracticeClient, verifyWebhook } from "@openpractice/client";

const op = createOpenPracticeClient({ baseUrl: "http://127.0.0.1:8080/emr", token: "token" });

export async function patientId(): Promise<number | null> {
  const read = await op.v1.GET("/apis/v1/patient/{id}", { params: { path: { id: "1" } } });
  return read.ok ? read.data.patient_id : null;
}

export async function errorCode(): Promise<string | null> {
  const read = await op.v2.GET("/v2/patients/{id}", { params: { path: { id: "1" } } });
  return read.ok ? null : (read.error?.error.code ?? null);
}

export async function signed(body: string, headers: Headers): Promise<boolean> {
  return (await verifyWebhook({ body, headers, signatureKey: "0".repeat(128) })).ok;
}
