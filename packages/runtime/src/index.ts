export * from "./config/config.js";
export * from "./config/jwt-secret.js";
export * from "./container.js";
export * from "./runtime.js";
export * from "./tokens.js";
export * from "./logger.js";
export * from "./storage-from-url.js";
export * from "./seed/seed-demo.js";
