export * from "./postgres-storage.js";
export * from "./postgres-profile.js";
export * from "./postgres-engine.js";
