export { openRedis, closeRedis } from "./connection.js";
export type { OpenRedisOptions } from "./connection.js";
