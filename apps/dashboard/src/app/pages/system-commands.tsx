import { lazyPage } from "./lazy-page.js";
import { definePage } from "./page.js";

/** The bot's built-in commands: which answer, who may use them, the bot's language, the overlay switches. */
export const systemCommandsPage = definePage({
  id: "system-commands",
  path: "/system-commands",
  title: "System commands",
  nav: { label: "System commands", order: 59, group: "Chat bot" },
  managedScope: "chatbot:manage",
  component: lazyPage(() => import("./system-commands/system-commands-view.js")),
});
