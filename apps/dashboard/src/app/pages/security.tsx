import { lazyPage } from "./lazy-page.js";
import { definePage } from "./page.js";

/** Security: password (with an EAT), two-step verification and recovery codes, hardware keys. */
export const securityPage = definePage({
  id: "security",
  path: "/security",
  title: "Security",
  nav: { label: "Security", order: 90, group: "Account" },
  component: lazyPage(() => import("./security/security-view.js")),
});
