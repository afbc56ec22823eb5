import type { ErrorCode } from "@openpractice/core";
import type { RouteDefinition, RouteDependencies } from "./route.js";

/** How the v1 envelope shows a domain error: its numeric code and the HTTP status. */
export interface V1ErrorMapping {
  code: number;
  status: number;
}

/**
 * A domain in packages/http: its routes and how its error codes appear on
 * the wire, once per contract. The handler's route table and both error maps
 * are built from the list of modules (http-modules.ts); the compiler refuses
 * a list that leaves any ErrorCode unmapped in either contract.
 */
export interface HttpModule<C extends ErrorCode> {
  readonly key: string;
  routes(deps: RouteDependencies): RouteDefinition[];
  readonly v1Codes: { readonly [K in C]: V1ErrorMapping };
  readonly v2Status: { readonly [K in C]: number };
}

/** Declares a module; its v1 and v2 maps must cover the same codes. */
export function defineHttpModule<const C extends ErrorCode = never>(module: HttpModule<C>): HttpModule<C> {
  return Object.freeze(module);
}
