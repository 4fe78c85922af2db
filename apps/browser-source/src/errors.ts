import { OvationError } from "@ovation/core";

/** A value handed to the page renderer is unusable (the `field` detail names which one and why). */
export class BrowserSourcePageError extends OvationError {
  override readonly name = "BrowserSourcePageError";

  constructor(field: string, rule: string) {
    super("OVATION_ERR_BROWSER_SOURCE_BOOTSTRAP", `browser-source page: ${field} ${rule}`, { details: { field, rule } });
  }
}
