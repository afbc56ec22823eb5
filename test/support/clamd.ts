import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { once } from "node:events";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { join } from "node:path";
import { ClamdScanner } from "@openpractice/clamav";
import { eicarTestFile } from "./eicar.js";
import { makeTempDir } from "./temp-dir.js";

/** The name the test database gives the EICAR file. */
const SIGNATURE = "OpenPractice.Test.EICAR";
/** The largest stream the test clamd takes: the adapter's tests scan 20 MiB under it and 31 MiB over it. */
export const TEST_STREAM_MAX_BYTES = 30 * 1024 * 1024;
const INSTALL =
  "install clamav-daemon (npm test does, as root with apt-get: scripts/test-tools.mjs; macOS: brew install clamav) or set OPENPRACTICE_CLAMD to the clamd binary";

export interface TestClamd {
  readonly host: string;
  readonly port: number;
  readonly socketPath: string;
  /**
   * What clamd reports for the EICAR file: the test signature's name with `.UNOFFICIAL`, which clamd appends to
   * every signature that is not from ClamAV's own signed databases.
   */
  readonly signatureName: string;
  /** Milliseconds from spawning clamd to its first PONG. */
  readonly startupMs: number;
  /** Stops clamd (resolves once it has exited: its sockets are closed) and removes its folder. */
  stop(): Promise<void>;
}

/**
 * Starts a clamd of its own: a temporary folder holds its configuration, a database of one line (the EICAR file's
 * SHA-256 as a hash signature, since the official databases cannot be downloaded everywhere the tests run), its
 * Unix socket and its log; it listens on 127.0.0.1 on a free port too. Resolves once it answers PING (about a
 * second with that database). As root it stays root: without a `User` line clamd switches to no other user.
 */
export async function startTestClamd(): Promise<TestClamd> {
  const clamd = clamdBinary();
  // The free port is the OS's pick, released before clamd binds it: a test file starting at the same moment may
  // take it first (clamd then exits at once), so a failed start is tried again on another port.
  for (let attempt = 1; ; attempt++) {
    try {
      return await startClamd(clamd);
    } catch (error) {
      if (attempt === 3) throw error;
    }
  }
}

async function startClamd(clamd: string): Promise<TestClamd> {
  const { dir, remove } = makeTempDir("openpractice-clamd-");
  try {
    const database = join(dir, "db");
    mkdirSync(database);
    const eicar = eicarTestFile();
    const sha256 = createHash("sha256").update(eicar).digest("hex");
    // A hash signature (.hsb: SHA-256 or SHA-1): hash:size:name.
    writeFileSync(join(database, "openpractice-test.hsb"), `${sha256}:${eicar.byteLength}:${SIGNATURE}\n`);
    const socketPath = join(dir, "clamd.sock");
    const logFile = join(dir, "clamd.log");
    const host = "127.0.0.1";
    const port = await freePort(host);
    const config = join(dir, "clamd.conf");
    writeFileSync(
      config,
      [
        "Foreground yes",
        `DatabaseDirectory ${database}`,
        `LocalSocket ${socketPath}`,
        `TCPSocket ${port}`,
        `TCPAddr ${host}`,
        `StreamMaxLength ${TEST_STREAM_MAX_BYTES / 1024 / 1024}M`,
        `LogFile ${logFile}`,
        "",
      ].join("\n"),
    );
    const started = performance.now();
    const child = spawn(clamd, ["--config-file", config], { stdio: ["ignore", "ignore", "pipe"] });
    let stderr = "";
    child.stderr?.on("data", (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    try {
      // A binary that cannot be run (OPENPRACTICE_CLAMD pointing nowhere) is an 'error' event, not an exit.
      await once(child, "spawn");
    } catch (error) {
      throw new Error(`clamd (${clamd}) could not be run: ${(error as Error).message}; ${INSTALL}`);
    }
    const log = () => (existsSync(logFile) ? readFileSync(logFile, "utf8") : "") + stderr;
    await answersPing({ host, port }, child, log);
    const startupMs = performance.now() - started;
    return {
      host,
      port,
      socketPath,
      signatureName: `${SIGNATURE}.UNOFFICIAL`,
      startupMs,
      stop: async () => {
        await stopProcess(child);
        remove();
      },
    };
  } catch (error) {
    remove();
    throw error;
  }
}

/** OPENPRACTICE_CLAMD, else clamd on the PATH, else where Debian (/usr/sbin, often off a user's PATH) or Homebrew put it. */
function clamdBinary(): string {
  const fromEnv = process.env.OPENPRACTICE_CLAMD;
  if (fromEnv) return fromEnv;
  const onPath = spawnSync("sh", ["-c", "command -v clamd"], { encoding: "utf8" });
  if (onPath.status === 0 && onPath.stdout.trim()) return onPath.stdout.trim();
  const found = ["/usr/sbin/clamd", "/usr/local/sbin/clamd", "/opt/homebrew/sbin/clamd"].find(existsSync);
  if (found) return found;
  throw new Error(`clamd is not installed: the ClamAV tests start one; ${INSTALL}`);
}

/** A port nothing listens on now (the OS's pick), for clamd's TCPSocket. */
async function freePort(host: string): Promise<number> {
  const server = createServer();
  server.listen(0, host);
  await once(server, "listening");
  const address = server.address();
  server.close();
  await once(server, "close");
  if (address === null || typeof address === "string") throw new Error("no TCP port from the OS");
  return address.port;
}

/** Polls PING until PONG; rejects with clamd's log when it exits first or takes over 30 s. */
async function answersPing(
  address: { host: string; port: number },
  child: ChildProcess,
  log: () => string,
): Promise<void> {
  const scanner = new ClamdScanner({ ...address, timeoutMs: 1000 });
  const deadline = performance.now() + 30_000;
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null)
      throw new Error(`clamd exited (${child.exitCode ?? child.signalCode}) before answering PING:\n${log()}`);
    try {
      await scanner.ping();
      return;
    } catch (error) {
      if (performance.now() > deadline) {
        await stopProcess(child);
        throw new Error(`clamd did not answer PING within 30 s (${String(error)}):\n${log()}`);
      }
    }
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** SIGTERM (clamd closes its sockets and removes the Unix one), SIGKILL if it is still there after 5 s. */
async function stopProcess(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = once(child, "exit");
  child.kill("SIGTERM");
  const killer = setTimeout(() => child.kill("SIGKILL"), 5000);
  await exited;
  clearTimeout(killer);
}
