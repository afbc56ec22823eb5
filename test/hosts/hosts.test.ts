import { createServer, type Server } from "node:http";
import { headerOverflowListener, RECOMMENDED_MAX_HEADER_BYTES } from "@openpractice/http";
import type { AddressInfo } from "node:net";
import { openPracticeMiddleware } from "@openpractice/express";
import { createH3NodeServer } from "@openpractice/h3";
import express from "express";
import { runHostSuite } from "./host-suite.js";

/** What docs/adapters.md asks of a server: room for a 16 KiB token, and the contract's 401 for larger headers. */
async function listen(server: Server, prefix: string) {
  server.on("clientError", headerOverflowListener({ maxHeaderBytes: RECOMMENDED_MAX_HEADER_BYTES, prefix }));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

runHostSuite("h3", async (handler, prefix) =>
  listen(createH3NodeServer(handler, { prefix, maxHeaderSize: RECOMMENDED_MAX_HEADER_BYTES }), prefix),
);

runHostSuite("express", async (handler, prefix) => {
  const app = express();
  app.get("/own-route", (_req, res) => void res.json({ host: "express" }));
  app.use(prefix || "/", openPracticeMiddleware(handler));
  return listen(createServer({ maxHeaderSize: RECOMMENDED_MAX_HEADER_BYTES }, app), prefix);
});
