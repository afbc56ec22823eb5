// Running commands for the pack check: each to its end, its output kept (the tail shown when it fails).
import { spawnSync } from "node:child_process";

/**
 * Runs a command to its end, or kills it after `timeout` ms (an npm install that cannot resolve a peer range can
 * spin for many minutes instead of failing); never throws.
 */
export function run(command, args, options = {}) {
  const started = Date.now();
  const r = spawnSync(command, args, { encoding: "utf8", maxBuffer: 64 * 2 ** 20, ...options });
  const stderr = `${r.stderr ?? ""}${r.error?.code === "ETIMEDOUT" ? `\n(killed after ${options.timeout / 1000} s)` : ""}`;
  return { status: r.status, stdout: r.stdout ?? "", stderr, seconds: (Date.now() - started) / 1000 };
}

/** The result of `run`, or an error with the ends of both outputs when it failed. */
export function must(what, r) {
  if (r.status !== 0)
    throw new Error(`${what} failed (${r.status}):\n${r.stdout.slice(-3000)}\n${r.stderr.slice(-3000)}`);
  return r;
}

export const say = (line) => process.stdout.write(`${line}\n`);
