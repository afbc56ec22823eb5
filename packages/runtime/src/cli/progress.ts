/**
 * Progress of a long CLI import, on stderr so stdout keeps its one JSON summary line: a bar redrawn in place on
 * a terminal, otherwise one JSON line per tenth of the work (and at the end) for logs and CI.
 */
export function progressReporter(
  what: string,
  unit: string,
  stream: NodeJS.WriteStream = process.stderr,
): (done: number, total: number) => void {
  const started = Date.now();
  let lastTenth = -1;
  return (done, total) => {
    const share = total === 0 ? 1 : done / total;
    if (stream.isTTY) {
      const width = 30;
      const filled = Math.round(share * width);
      const line = `${what}: [${"#".repeat(filled)}${" ".repeat(width - filled)}] ${Math.floor(share * 100)}% ${done.toLocaleString("en-US")}/${total.toLocaleString("en-US")} ${unit}`;
      stream.write(`\r${line}${done >= total ? "\n" : ""}`);
      return;
    }
    const tenth = Math.floor(share * 10);
    if (tenth === lastTenth && done < total) return;
    lastTenth = tenth;
    const seconds = Math.round((Date.now() - started) / 100) / 10;
    stream.write(`${JSON.stringify({ progress: what, done, total, percent: Math.floor(share * 100), seconds })}\n`);
  };
}
