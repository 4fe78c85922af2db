import type { ChatSourceSettings } from "@ovation/core/overlays";
import type { ChatEvent } from "@ovation/core/contracts";

/** Decides which chat events a `chat` source shows, from its options (precomputed once per settings). */
export function chatFilter(settings: Pick<ChatSourceSettings, "hide_bot" | "bot_names" | "hide_commands" | "hidden_users" | "platforms">): (event: ChatEvent) => boolean {
  const hidden = new Set(settings.hidden_users.map((u) => u.toLowerCase()));
  const bots = new Set(settings.bot_names.map((u) => u.toLowerCase()));
  const platforms = new Set(settings.platforms);
  return (event) => {
    if (platforms.size > 0 && !platforms.has(event.platform)) return false;
    const name = event.user.username.toLowerCase();
    if (hidden.has(name) || hidden.has(event.user.platform_id.toLowerCase())) return false;
    if (settings.hide_bot && (bots.has(name) || event.user.badges.some((b) => b.type === "bot"))) return false;
    if (settings.hide_commands && event.message.trimStart().startsWith("!")) return false;
    return true;
  };
}
