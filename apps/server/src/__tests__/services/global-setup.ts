import { SERVICES_DIR_ENV, makeServicesDir, stopServices } from "./shared-service.js";

/**
 * vitest global setup: a directory where test files record the servers they share (PostgreSQL,
 * Redis; started on first use), and at the end of the run, every one of them stopped.
 */
export default function setup(): () => void {
  const dir = makeServicesDir();
  process.env[SERVICES_DIR_ENV] = dir;
  return () => stopServices(dir);
}
