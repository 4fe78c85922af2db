import { lazyPage } from "./lazy-page.js";
import { definePage } from "./page.js";

/** Shoutouts: the cooldowns and message of `!so`, a shoutout from here, the latest ones. */
export const shoutoutsPage = definePage({
  id: "shoutouts",
  path: "/shoutouts",
  title: "Shoutouts",
  nav: { label: "Shoutouts", order: 59, group: "Chat bot" },
  managedScope: "chatbot:manage:shoutouts",
  component: lazyPage(() => import("./shoutouts/shoutouts-view.js")),
});
