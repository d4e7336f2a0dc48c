// Mirror tables: see packages/sync/README.md.
export {};
