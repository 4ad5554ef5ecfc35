export * from "./types";
export * from "./board";
export * from "./fractional";
export * from "./wip";
export * from "./history";
export * from "./serialize";
export * from "./permissions";
