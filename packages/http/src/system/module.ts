import { defineHttpModule } from "../http-module.js";

/**
 * The codes any route may answer (contract, authentication, rate limits,
 * routing, outages). Its routes (health, readiness, the OpenAPI document and
 * the reference page) need the finished route table, so the handler adds them.
 */
export const systemHttpModule = defineHttpModule({
  key: "system",
  routes: () => [],
  v1Codes: {
    VALIDATION_FAILED: { code: 4000, status: 400 },
    INVALID_PARAMETER: { code: 4000, status: 400 },
    MALFORMED_JSON: { code: 4002, status: 400 },
    PAYLOAD_TOO_LARGE: { code: 4130, status: 413 },
    UNSUPPORTED_MEDIA_TYPE: { code: 4150, status: 415 },
    UNAUTHORIZED: { code: 4010, status: 401 },
    INSUFFICIENT_PERMISSIONS: { code: 4030, status: 403 },
    UNKNOWN_REFERENCE: { code: 4006, status: 400 },
    INVALID_TRANSITION: { code: 4092, status: 409 },
    VERSION_CONFLICT: { code: 4097, status: 409 },
    IDEMPOTENCY_KEY_REUSED: { code: 4220, status: 422 },
    ROUTE_NOT_FOUND: { code: 4049, status: 404 },
    METHOD_NOT_ALLOWED: { code: 4050, status: 405 },
    SERVICE_UNAVAILABLE: { code: 5030, status: 503 },
    INTERNAL_ERROR: { code: 5000, status: 500 },
    RATE_LIMIT_EXCEEDED: { code: 4290, status: 429 },
  },
  v2Status: {
    VALIDATION_FAILED: 400,
    INVALID_PARAMETER: 400,
    MALFORMED_JSON: 400,
    PAYLOAD_TOO_LARGE: 413,
    UNSUPPORTED_MEDIA_TYPE: 415,
    UNAUTHORIZED: 401,
    INSUFFICIENT_PERMISSIONS: 403,
    UNKNOWN_REFERENCE: 400,
    INVALID_TRANSITION: 409,
    VERSION_CONFLICT: 409,
    IDEMPOTENCY_KEY_REUSED: 422,
    ROUTE_NOT_FOUND: 404,
    METHOD_NOT_ALLOWED: 405,
    SERVICE_UNAVAILABLE: 503,
    INTERNAL_ERROR: 500,
    RATE_LIMIT_EXCEEDED: 429,
  },
});
