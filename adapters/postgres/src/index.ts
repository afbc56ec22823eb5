export * from "./postgres-storage.js";
export * from "./postgres-profile.js";
export * from "./postgres-engine.js";
export * from "./patient-search-keys.js";
export * from "./patient-counts.js";
export { coalescingSocket } from "./coalescing-socket.js";
