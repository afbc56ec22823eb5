/** The OpenAPI document as a server serves it at /openapi.json (with the token endpoint), built in process. */
export declare function currentOpenApiDocument(): Promise<Record<string, any>>;
/** The text of /openapi.json, byte for byte as a server serves it. */
export declare function currentOpenApiText(): Promise<string>;
