import { readFileSync } from "node:fs";

/** error code → its v1 code and HTTP statuses, read from the catalogue in docs/errors.md. */
export interface CatalogueEntry {
  v1Code: number;
  v1Status: number;
  v2Status: number;
}

export function readErrorCatalogue(file: string): Map<string, CatalogueEntry> {
  const catalogue = new Map<string, CatalogueEntry>();
  for (const line of readFileSync(file, "utf8").split("\n")) {
    const cells = line.split("|").map((c) => c.trim());
    const code = /^`([A-Z_]+)`$/.exec(cells[1] ?? "")?.[1];
    if (!code) continue;
    catalogue.set(code, { v1Code: Number(cells[3]), v1Status: Number(cells[4]), v2Status: Number(cells[5]) });
  }
  return catalogue;
}

/** Errors of a path no route matches: they follow the unknown-path rule (a 405 is a known path, in its routes' contract). */
const UNMATCHED = new Set(["ROUTE_NOT_FOUND"]);

/**
 * Which error shape a path answers in (docs/errors.md): v2 on /v2, the webhook
 * subscription and the notification APIs; v1 everywhere else, unknown paths
 * outside /v2 included.
 */
export function contractOfPath(path: string, matched: boolean): "v1" | "v2" {
  if (/^\/v2(\/|\?|$)/.test(path)) return "v2";
  return matched && /^\/apis\/v1\/(webhooks|notifications)(\/|\?|$)/.test(path) ? "v2" : "v1";
}

/** Why a 4xx reply is not in the contract's error shape with the catalogue's status, or undefined when it is. */
export function errorShapeProblem(
  catalogue: Map<string, CatalogueEntry>,
  path: string,
  status: number,
  contentType: string,
  text: string,
): string | undefined {
  if (!/json/.test(contentType)) return `content type ${contentType || "(none)"}`;
  let body: any;
  try {
    body = JSON.parse(text);
  } catch {
    return "body is not JSON";
  }
  // Single sign-on's launch refuses in RFC 6749 4.1.2.1's shape with 400 (docs/sso.md); its 401s are the bearer's.
  if (/^\/apis\/sso\/launch\/?(\?|$)/.test(path) && typeof body?.error === "string") {
    if (!["invalid_request", "invalid_scope"].includes(body.error))
      return `launch error ${body.error} is not one of RFC 6749 4.1.2.1's`;
    if (status !== 400) return `launch refusal answered ${status}`;
    return typeof body.error_description === "string" ? undefined : "launch refusal without error_description";
  }
  // The token endpoint answers in RFC 6749 section 5.2's shape, as OAuth clients expect (docs/authentication.md).
  if (/^\/oauth\/token\/?(\?|$)/.test(path) && typeof body?.error === "string") {
    const rfc = [
      "invalid_request",
      "invalid_client",
      "invalid_grant",
      "unauthorized_client",
      "unsupported_grant_type",
      "invalid_scope",
      "temporarily_unavailable",
    ];
    if (!rfc.includes(body.error)) return `token endpoint error ${body.error} is not an RFC 6749 code`;
    if (![400, 401, 429].includes(status)) return `token endpoint answered ${status}`;
    return undefined;
  }
  // The FHIR facade answers OperationOutcomes with the v2 status of their code (docs/errors.md, "FHIR R4").
  if (/^\/fhir(\/|\?|$)/.test(path)) {
    if (!/^application\/fhir\+json/.test(contentType)) return `FHIR error as ${contentType}`;
    const issues = body?.resourceType === "OperationOutcome" && Array.isArray(body.issue) ? body.issue : undefined;
    if (!issues?.length) return "not an OperationOutcome with issues";
    const codes = new Set(issues.map((i: any) => i?.details?.text));
    const bad = issues.find(
      (i: any) =>
        !["error", "fatal"].includes(i?.severity) || typeof i?.code !== "string" || typeof i?.diagnostics !== "string",
    );
    if (bad) return `OperationOutcome issue ${JSON.stringify(bad).slice(0, 120)} lacks severity, code or diagnostics`;
    if (codes.size !== 1) return "OperationOutcome issues name several error codes";
    const code = [...codes][0] as string;
    const entry = catalogue.get(code);
    if (!entry) return `error code ${code} is not in docs/errors.md`;
    if (entry.v2Status !== status) return `${code} is HTTP ${entry.v2Status} in docs/errors.md, got ${status}`;
    return undefined;
  }
  const matched = !UNMATCHED.has(body?.error_code ?? body?.error?.code);
  if (contractOfPath(path, matched) === "v1") {
    if (
      !body ||
      typeof body.code !== "number" ||
      body.data !== null ||
      typeof body.message !== "string" ||
      typeof body.error_code !== "string"
    )
      return "not the v1 envelope {code, data: null, message, error_code}";
    const entry = catalogue.get(body.error_code);
    if (!entry) return `error_code ${body.error_code} is not in docs/errors.md`;
    if (entry.v1Code !== body.code || entry.v1Status !== status)
      return `${body.error_code} is code ${entry.v1Code} with HTTP ${entry.v1Status} in docs/errors.md, got code ${body.code} with HTTP ${status}`;
    return undefined;
  }
  const error = body?.error;
  if (
    !error ||
    typeof error.code !== "string" ||
    typeof error.message !== "string" ||
    !error.details ||
    typeof error.details !== "object" ||
    Array.isArray(error.details)
  )
    return "not the v2 error {error: {code, message, details}}";
  if (!body.meta || typeof body.meta.request_id !== "string" || typeof body.meta.timestamp !== "string")
    return "v2 error without meta {timestamp, request_id}";
  const entry = catalogue.get(error.code);
  if (!entry) return `error code ${error.code} is not in docs/errors.md`;
  if (entry.v2Status !== status) return `${error.code} is HTTP ${entry.v2Status} in docs/errors.md, got ${status}`;
  return undefined;
}
