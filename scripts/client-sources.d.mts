/** "METHOD /path" of every operation whose JSON request body has an `idempotency_key` property. */
export declare function idempotentOperations(document: Record<string, any>): string[];
/** File name (under packages/client/src/generated) → contents, generated from the document. */
export declare function clientSources(document: Record<string, any>): Promise<Record<string, string>>;
