export * from "./sqlite-storage.js";
export * from "./sqlite-profile.js";
export * from "./sqlite-engine.js";
export { WalCheckpointer, type WalCheckpointOptions, type WalCheckpointStats } from "./wal-checkpointer.js";
