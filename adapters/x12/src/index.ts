export { AAA_FOLLOW_UPS, AAA_REASONS } from "./aaa-codes.js";
export { type Clearinghouse, DEFAULT_TIMEOUT_MS } from "./clearinghouse.js";
export { postToClearinghouse } from "./clearinghouse-transport.js";
export { build270, type EnvelopeIds, X12_DELIMITERS } from "./x12-270.js";
export { Invalid271Error, parse271 } from "./x12-271.js";
export { X12EligibilityGateway, type X12EligibilityGatewayOptions } from "./x12-eligibility-gateway.js";
