import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";

export const CLI = fileURLToPath(new URL("../../packages/runtime/dist/cli.js", import.meta.url));

if (!existsSync(CLI)) throw new Error(`${CLI} is missing: run \`npm run build\` (npm test does it first)`);

/**
 * Environment for a CLI run: the parent's PATH only, plus the given variables. `serve` runs as one process unless a
 * test asks for workers (on PostgreSQL and MySQL it would otherwise fork one per core).
 */
export function cliEnv(extra: Record<string, string>): NodeJS.ProcessEnv {
  return { PATH: process.env.PATH, LOG_LEVEL: "info", OPENPRACTICE_WORKERS: "1", ...extra };
}

/** Runs the CLI to its end (under the given umask, e.g. "000", when asked). */
export function runCli(args: string[], env: Record<string, string>, cwd: string, options: { umask?: string } = {}) {
  const [command, argv] =
    options.umask === undefined
      ? [process.execPath, [CLI, ...args]]
      : ["/bin/sh", ["-c", `umask ${options.umask} && exec "$0" "$@"`, process.execPath, CLI, ...args]];
  const r = spawnSync(command, argv, { env: cliEnv(env), cwd, encoding: "utf8", timeout: 60_000 });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** The CLI as a child process without blocking this one (a server's writers, or a test's reader, go on meanwhile). */
export function runCliAsync(args: string[], env: Record<string, string>, cwd: string) {
  return new Promise<{ status: number | null; stdout: string; stderr: string }>((resolve) => {
    const child = spawn(process.execPath, [CLI, ...args], { env: cliEnv(env), cwd });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d) => (stdout += d));
    child.stderr.on("data", (d) => (stderr += d));
    child.on("exit", (status) => resolve({ status, stdout, stderr }));
  });
}

export interface ServeProcess {
  child: ChildProcess;
  url: string;
  /** Every stdout line so far, parsed as JSON log records. */
  logs: () => Array<Record<string, unknown>>;
  exited: Promise<number | null>;
}

/**
 * Starts `openpractice serve` (under the given umask, e.g. "000", with Node options such as --expose-gc, and with
 * more arguments such as --workers, when asked) and resolves once it logs its URL (with workers: the first's).
 */
export async function startServe(
  env: Record<string, string>,
  cwd: string,
  options: { umask?: string; nodeOptions?: string[]; args?: string[] } = {},
): Promise<ServeProcess> {
  const node = [...(options.nodeOptions ?? []), CLI, "serve", ...(options.args ?? [])];
  const [command, args] =
    options.umask === undefined
      ? [process.execPath, node]
      : ["/bin/sh", ["-c", `umask ${options.umask} && exec "$0" "$@"`, process.execPath, ...node]];
  const child = spawn(command, args, { env: cliEnv(env), cwd, stdio: ["ignore", "pipe", "pipe"] });
  let out = "";
  let err = "";
  child.stdout!.on("data", (d) => (out += d));
  child.stderr!.on("data", (d) => (err += d));
  const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
  const logs = () =>
    out
      .split("\n")
      .filter(Boolean)
      .map((l) => JSON.parse(l) as Record<string, unknown>);
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    const listening = logs().find((l) => l.msg === "openpractice listening");
    if (listening) return { child, url: String(listening.url), logs, exited };
    if (child.exitCode !== null) throw new Error(`serve exited ${child.exitCode}: ${err}`);
    await new Promise((r) => setTimeout(r, 50));
  }
  child.kill("SIGKILL");
  throw new Error(`serve did not start: ${err}`);
}

/** Stops a server a test started (SIGTERM, then its exit); nothing when there is none or it has exited. */
export async function stopServe(serve: ServeProcess | undefined): Promise<void> {
  if (!serve || serve.child.exitCode !== null) return;
  serve.child.kill("SIGTERM");
  await serve.exited;
}
