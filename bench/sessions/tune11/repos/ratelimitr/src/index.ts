export { rateLimit, type RateLimitOptions } from "./middleware.js";
export { TokenBucket, type Decision, type TokenBucketOptions } from "./tokenBucket.js";
export { SlidingWindow, type SlidingWindowOptions } from "./slidingWindow.js";
export { MemoryStore, type Store } from "./store.js";
export { Allowlist, parseCidr } from "./allowlist.js";
export { apiKey, clientIp, defaultKey, peerIp, type KeyFn } from "./keys.js";
export { retryAfterSeconds, setHeaders } from "./headers.js";
