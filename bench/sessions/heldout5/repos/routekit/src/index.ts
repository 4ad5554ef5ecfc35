export { compilePattern, matchPattern, buildPath, type Params } from "./pattern.js";
export { parseQuery, stringifyQuery, type Query } from "./query.js";
export { resolve, type RouteDef, type RouteMatch } from "./routes.js";
export { runGuards, type Guard, type GuardResult } from "./guards.js";
export { BrowserHistory, MemoryHistory, type RouterHistory } from "./history.js";
export { ScrollManager } from "./scroll.js";
export { Router, type CurrentRoute } from "./router.js";
