// The typed client from docs/client.md, as a function a test runs against a real runtime.
import { createOpenPracticeClient } from "@openpractice/client";

export async function quickstart(baseUrl: string, token: string) {
  const op = createOpenPracticeClient({ baseUrl, token });

  // v1: the envelope is unwrapped; `data` is typed from the OpenAPI document.
  const registered = await op.v1.POST("/apis/v1/patient", {
    body: { first_name: "Jane", last_name: "Doe", date_of_birth: "1985-04-12", sex: "FEMALE" },
  });
  if (!registered.ok) throw new Error(`registration refused: ${registered.error?.message}`);
  const patientId: number = registered.data.patient_id;

  // v2: the resource itself; errors are values too, typed as the v2 error body.
  const found = await op.v2.GET("/v2/patients", {
    params: { query: { search: "jane doe", fields: "first_name,last_name" } },
  });
  if (!found.ok) throw new Error(`search failed: ${found.error?.error.code}`);

  const missing = await op.v2.GET("/v2/patients/{id}", { params: { path: { id: "999999" } } });
  const code = missing.ok ? null : missing.error?.error.code; // "PATIENT_NOT_FOUND"

  return { patientId, matches: found.data.pagination.total_count, code };
}
