import { lazyPage } from "./lazy-page.js";
import { definePage } from "./page.js";

/** The viewer queue: open, close, pick next or at random, subscriber priority, its browser source. */
export const queuePage = definePage({
  id: "queue",
  path: "/queue",
  title: "Viewer queue",
  nav: { label: "Viewer queue", order: 57, group: "Chat bot" },
  managedScope: "chatbot:manage:queue",
  component: lazyPage(() => import("./queue/queue-view.js")),
});
