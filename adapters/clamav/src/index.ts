export { type ClamdAddress, describeAddress } from "./clamd-address.js";
export { ClamdError, type ClamdErrorCode } from "./clamd-error.js";
export { ClamdScanner, type ClamdScannerOptions, DEFAULT_TIMEOUT_MS } from "./clamd-scanner.js";
