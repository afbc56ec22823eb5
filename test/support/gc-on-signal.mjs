// Test-only preload (`node --expose-gc --import ./gc-on-signal.mjs`): on SIGUSR2 the process runs a
// full garbage collection, finalizing every unreachable native handle (better-sqlite3's statements
// among them), and reports its memory in one stderr line. The runtime itself knows nothing of it.
if (typeof globalThis.gc !== "function") throw new Error("gc-on-signal.mjs needs node --expose-gc");
process.on("SIGUSR2", () => {
  globalThis.gc();
  const { rss, heapUsed } = process.memoryUsage();
  process.stderr.write(`gc-done ${JSON.stringify({ rss, heapUsed })}\n`);
});
