import { type Agent, request } from "node:http";
import type { FuzzRequest } from "./fuzz-cases.js";

export interface FuzzReply {
  /** 0 when no reply came (connection reset, timeout). */
  status: number;
  body: string;
  contentType: string;
  error?: string;
  ms: number;
}

/**
 * Sends a request with node:http so the path goes out unnormalised (fetch would
 * resolve "../" and re-encode "%") and bodies can be chunked or oversize.
 */
export function sendRaw(base: URL, agent: Agent, req: FuzzRequest, timeoutMs = 20_000): Promise<FuzzReply> {
  const started = performance.now();
  return new Promise((resolve) => {
    let settled = false;
    const finish = (reply: Omit<FuzzReply, "ms">) => {
      if (settled) return;
      settled = true;
      resolve({ ...reply, ms: performance.now() - started });
    };
    const headers: Record<string, string | number> = { ...req.headers };
    if (req.body && !req.chunked) headers["content-length"] = req.body.length;
    if (req.chunked) headers["transfer-encoding"] = "chunked";
    const outgoing = request(
      { host: base.hostname, port: base.port, method: req.method, path: req.path, headers, agent, timeout: timeoutMs },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("end", () =>
          finish({
            status: res.statusCode ?? 0,
            body: Buffer.concat(chunks).toString("utf8"),
            contentType: String(res.headers["content-type"] ?? ""),
          }),
        );
        res.on("error", (e) =>
          finish({
            status: res.statusCode ?? 0,
            body: Buffer.concat(chunks).toString("utf8"),
            contentType: String(res.headers["content-type"] ?? ""),
            error: e.message,
          }),
        );
      },
    );
    outgoing.on("timeout", () => outgoing.destroy(new Error("client timeout")));
    // A server that answers 413 early may close while the body is still going out: the reply still counts.
    outgoing.on("error", (e) =>
      setTimeout(() => finish({ status: 0, body: "", contentType: "", error: e.message }), 50),
    );
    if (req.body && req.chunked) {
      const step = 64 * 1024;
      let offset = 0;
      const writeNext = () => {
        while (offset < req.body!.length) {
          const slice = req.body!.subarray(offset, offset + step);
          offset += step;
          if (!outgoing.write(slice)) return void outgoing.once("drain", writeNext);
        }
        outgoing.end();
      };
      writeNext();
    } else outgoing.end(req.body);
  });
}
