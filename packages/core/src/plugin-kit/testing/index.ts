/**
 * @ovation/core/plugin-kit/testing: helpers for plugin tests (polling for an effect). Loads no
 * package and no Node built-in; meant for test code only.
 */
export { until } from "./until.js";
export { memoryPluginServices } from "./memory-services.js";
export type { MemoryRoute } from "./memory-services.js";
