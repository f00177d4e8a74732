// Types of static-config.mjs (plain JavaScript for next.config.mjs).
export declare const LARGEST_BODY_BYTES: number;
export declare const PROXY_BODY_BUFFER_BYTES: number;
export declare const STATIC_CSP: string;
export declare const SECURITY_HEADERS: Readonly<Record<string, string>>;
