import { randomBytes } from "node:crypto";
import type { PracticeKeys } from "@openpractice/core";

/** Key material for a test practice: a fresh random webhook key, Web Push off unless a test brings its own pair. */
export function testPracticeKeys(vapid: PracticeKeys["vapid"] = null): PracticeKeys {
  return { webhookSecretKey: randomBytes(32), vapid };
}
