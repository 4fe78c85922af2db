import type { ChatBadge } from "@ovation/core/contracts";
import { CHAT_LIMITS } from "@ovation/core/contracts";

/** Kick badge types and the common type each becomes (Kick already uses most common names). */
const COMMON: Readonly<Record<string, string>> = {
  broadcaster: "broadcaster",
  moderator: "moderator",
  vip: "vip",
  og: "og",
  founder: "founder",
  subscriber: "subscriber",
  sub_gifter: "sub-gifter",
  verified: "verified",
  staff: "staff",
  trainwreckstv: "staff",
};

/** Kick's `identity.badges` (webhook) or `identity.badges` (chat socket) as common badges. */
export function kickBadges(badges: readonly { type: string; text?: string | null; count?: number | null }[] | null | undefined): ChatBadge[] {
  return (badges ?? []).slice(0, CHAT_LIMITS.badges).map((b) => {
    const type = COMMON[b.type] ?? (b.type.toLowerCase().replace(/[^a-z0-9_-]/g, "").slice(0, 64) || "unknown");
    return { type, text: b.text ? b.text.slice(0, CHAT_LIMITS.nameLength) : null, id: `kick/${type}`, count: typeof b.count === "number" ? b.count : null };
  });
}
