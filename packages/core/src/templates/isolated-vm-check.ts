import { createRequire } from "node:module";
import { OvationError } from "../errors.js";

/** Code of the error thrown when the template sandbox cannot start because isolated-vm is not installed. */
export const SANDBOX_UNAVAILABLE_CODE = "OVATION_ERR_TEMPLATE_SANDBOX_UNAVAILABLE";

/** Whether isolated-vm resolves from @ovation/core (checked once). */
let available: boolean | undefined;

function resolves(resolve: (id: string) => string): boolean {
  try {
    resolve("isolated-vm");
    return true;
  } catch {
    return false;
  }
}

/**
 * Throws a clear {@link OvationError} when isolated-vm, the optional peer dependency the sandbox renders
 * in, cannot be resolved from @ovation/core. Checked once, when a {@link TemplateSandbox} is created, so
 * a program that only uses the alert engine never needs the native build. `resolve` replaces Node's
 * resolver (tests).
 */
export function assertIsolatedVmInstalled(resolve?: (id: string) => string): void {
  const found = resolve ? resolves(resolve) : (available ??= resolves(createRequire(import.meta.url).resolve));
  if (!found) {
    throw new OvationError(
      SANDBOX_UNAVAILABLE_CODE,
      "Command templates need the optional peer dependency isolated-vm, which is not installed: run `npm install isolated-vm@^5` beside @ovation/core (it is a native module), or use only @ovation/core/alerts and /contracts",
      { details: { package: "isolated-vm" } },
    );
  }
}
