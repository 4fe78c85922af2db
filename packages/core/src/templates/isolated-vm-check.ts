import { createRequire } from "node:module";
import { OvationError } from "../errors.js";

/** Code of the error thrown when the template sandbox cannot start because isolated-vm is not installed. */
export const SANDBOX_UNAVAILABLE_CODE = "OVATION_ERR_TEMPLATE_SANDBOX_UNAVAILABLE";

let available: boolean | undefined;

/**
 * Throws a clear {@link OvationError} when isolated-vm, the optional peer dependency the sandbox renders
 * in, cannot be resolved from @ovation/core. Checked once, when a {@link TemplateSandbox} is created, so
 * a program that only uses the alert engine never needs the native build.
 */
export function assertIsolatedVmInstalled(resolve: (id: string) => string = createRequire(import.meta.url).resolve): void {
  if (available === undefined) {
    try {
      resolve("isolated-vm");
      available = true;
    } catch {
      available = false;
    }
  }
  if (!available) {
    throw new OvationError(
      SANDBOX_UNAVAILABLE_CODE,
      "Command templates need the optional peer dependency isolated-vm, which is not installed: run `npm install isolated-vm@^5` beside @ovation/core (it is a native module), or use only @ovation/core/alerts and /contracts",
      { details: { package: "isolated-vm" } },
    );
  }
}
