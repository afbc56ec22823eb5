/** What a host learns about each finished request: no bodies, no query strings, no patient data. */
export interface RequestLogEntry {
  requestId: string;
  method: string;
  /** The route pattern (e.g. /v2/patients/:id), never the concrete path. */
  route: string;
  status: number;
  durationMs: number;
  organisationId?: number | undefined;
  errorCode?: string | undefined;
}

/** Hears every finished request (createHttpHandler's onRequestComplete). */
export type RequestCompleteHook = (entry: RequestLogEntry) => void;

/** Receives defects and store outages (createHttpHandler's onUnexpectedError). */
export type UnexpectedErrorHook = (error: unknown, entry: Omit<RequestLogEntry, "status" | "durationMs">) => void;

/** The hooks the handler and its last-resort path report through. */
export interface RequestHooks {
  onRequestComplete?: RequestCompleteHook | undefined;
  onUnexpectedError?: UnexpectedErrorHook | undefined;
}
