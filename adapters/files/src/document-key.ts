import { DOCUMENT_KEY_PATTERN } from "@openpractice/core";

/**
 * The key, checked against the port's pattern before it becomes part of a path: letters, digits, `-` and `_` only,
 * so no key can name `..`, a separator or a `.partial` file.
 */
export function checkedKey(key: string): string {
  if (typeof key !== "string" || !DOCUMENT_KEY_PATTERN.test(key))
    throw new TypeError(`Not a document store key (letters, digits, - and _, at most 64): ${JSON.stringify(key)}`);
  return key;
}

/** An object's shard directory: the key's first two characters, so no directory holds more than a few thousand. */
export function shardOf(key: string): string {
  return key.slice(0, 2);
}

/** A shard directory's name as this store makes them (one or two key characters). */
export const SHARD_PATTERN = /^[A-Za-z0-9_-]{1,2}$/;
