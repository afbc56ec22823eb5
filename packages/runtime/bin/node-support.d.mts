/** The supported Node.js range as package.json's engines.node states it. */
export declare const SUPPORTED_NODE_RANGE: string;
/** Whether a Node.js version ("22.12.0" or "v22.12.0") is within the supported range. */
export declare function isSupportedNode(version?: string): boolean;
/** The one line printed when the running Node.js is outside the range. */
export declare function unsupportedNodeMessage(version?: string): string;
