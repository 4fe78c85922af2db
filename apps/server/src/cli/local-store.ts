import type { ServerConfig } from "../config.js";
import { createRepositories } from "../store/repositories.js";
import type { Repositories } from "../store/repositories.js";
import { Store, lockHolder } from "../store/store.js";
import type { AdminRequest } from "../admin/admin-protocol.js";
import { callRunningServer } from "./admin-client.js";

/**
 * Runs a store operation: through the running server's admin socket when a server holds the data
 * directory (so it stays the only writer), else directly on the store, flushed before returning.
 */
export async function runStoreOperation<T>(config: ServerConfig, request: AdminRequest, local: (repos: Repositories) => T): Promise<T> {
  if (lockHolder(config.dataDir) !== null) return (await callRunningServer(config.dataDir, request)) as T;
  const store = await Store.openConfigured(config);
  try {
    const result = local(createRepositories(store));
    await store.persisted();
    return result;
  } finally {
    await store.close();
  }
}
