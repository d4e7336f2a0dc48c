// Placeholder: the Electron main process lands in the next commits.
export {};
