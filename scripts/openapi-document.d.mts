/** The OpenAPI document as a server serves it at /openapi.json (with the token endpoint), built in process. */
export declare function currentOpenApiDocument(): Promise<Record<string, any>>;
