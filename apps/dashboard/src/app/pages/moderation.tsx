import { lazyPage } from "./lazy-page.js";
import { definePage } from "./page.js";

/** Auto-moderation: rules, exemptions, "test a message". */
export const moderationPage = definePage({
  id: "moderation",
  path: "/moderation",
  title: "Auto-moderation",
  nav: { label: "Auto-moderation", order: 58, group: "Chat bot" },
  managedScope: "chatbot:manage:moderation",
  component: lazyPage(() => import("./moderation/moderation-view.js")),
});
