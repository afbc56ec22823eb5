export * from "./h3-host.js";
