import type { SoapSummary, SoapSummaryRenderer, SummaryVariant } from "@openpractice/core";
import Tinypool from "tinypool";
import type { SummaryRenderTask } from "./summary-render-worker.js";

export interface ThreadedSummaryRendererOptions {
  /** Worker threads at most; default 1 (summaries are a background job: one thread keeps them off the event loop). */
  threads?: number | undefined;
  /** A thread with nothing to render exits after this long; default 30,000 ms (a busy clinic keeps it warm). */
  idleTimeoutMs?: number | undefined;
}

/**
 * The worker's file. Built, it sits beside this module in dist/. Run from
 * source (the tests' "source" condition), this module is a .ts file under
 * src/ and the worker is taken from the package's build: a worker thread
 * loads plain JavaScript, not TypeScript through the test runner.
 */
function workerFile(): URL {
  const here = import.meta.url;
  return here.endsWith(".ts")
    ? new URL("../dist/summary-render-worker.js", here)
    : new URL("./summary-render-worker.js", here);
}

/**
 * Renders with {@link PdfLibSummaryRenderer} in worker threads, so laying out a
 * multi-page PDF (tens to hundreds of milliseconds of CPU) does not stall the
 * requests served by the same event loop. Threads start on the first render
 * and exit when idle; they never keep the process alive. `close()` ends them
 * (a later render starts them again).
 */
export class ThreadedSummaryRenderer implements SoapSummaryRenderer {
  readonly contentType = "application/pdf";
  private pool: Tinypool | undefined;
  private readonly underWay = new Set<Promise<unknown>>();
  private readonly threads: number;
  private readonly idleTimeoutMs: number;

  constructor(options: ThreadedSummaryRendererOptions = {}) {
    const threads = options.threads ?? 1;
    if (!Number.isInteger(threads) || threads < 1)
      throw new RangeError(`threads must be a positive integer, got ${threads}`);
    this.threads = threads;
    this.idleTimeoutMs = options.idleTimeoutMs ?? 30_000;
  }

  render(summary: SoapSummary, variant: SummaryVariant): Promise<Uint8Array> {
    this.pool ??= new Tinypool({
      filename: workerFile().href,
      minThreads: 0,
      maxThreads: this.threads,
      idleTimeout: this.idleTimeoutMs,
      // No inherited Node flags: a host's (e.g. --input-type for a script given with -e) may not apply to a file.
      execArgv: [],
    });
    const task: SummaryRenderTask = { summary, variant };
    const rendered: Promise<Uint8Array> = this.pool.run(task);
    const settled = rendered.then(
      () => undefined,
      () => undefined,
    );
    this.underWay.add(settled);
    void settled.then(() => this.underWay.delete(settled));
    return rendered;
  }

  /** Threads running now (0 before the first render and after idling out or close()). */
  get runningThreads(): number {
    return this.pool?.threads.length ?? 0;
  }

  /**
   * Lets the renders under way finish, then ends the threads; whoever created
   * the renderer calls it at shutdown. A later render starts a thread again.
   */
  async close(): Promise<void> {
    const pool = this.pool;
    this.pool = undefined;
    await Promise.all(this.underWay);
    await pool?.destroy();
  }
}
