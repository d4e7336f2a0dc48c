/** Types of scripts/desktop-build-stamp.mjs (plain Node, run before anything is built). */
export declare const STAMP: string;
export declare function sourcesDigest(root: string): string;
export declare function buildIsFresh(root: string): boolean;
export declare function writeStamp(root: string, digest?: string): void;
