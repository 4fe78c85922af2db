import { lazyPage } from "./lazy-page.js";
import { definePage } from "./page.js";

/** Polls: start one (Twitch's own where it can, chat votes elsewhere), watch the votes, end it. */
export const pollsPage = definePage({
  id: "polls",
  path: "/polls",
  title: "Polls",
  nav: { label: "Polls", order: 58, group: "Chat bot" },
  managedScope: "chatbot:manage:polls",
  component: lazyPage(() => import("./polls/polls-view.js")),
});
