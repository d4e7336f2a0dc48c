// Placeholder: the preload exposing the contract lands in the next commits.
export {};
