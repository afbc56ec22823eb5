/**
 * A partial update: a field that is absent or undefined stays as it is. The
 * wire layers build these from request bodies, where a field the client left
 * out arrives as undefined.
 */
export type Patch<T> = { [K in keyof T]?: T[K] | undefined };
