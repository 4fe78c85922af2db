import type { ChatEvent } from "../../../chat/event.js";
import type { ModerationTarget } from "../../../plugins/contract.js";
import { botMessage, type BotLanguage } from "../system/bot-messages.js";
import type { ModerationVerdict } from "./moderation-module.js";

/** What carrying out a verdict did; `warning` is the chat message to send for a `warn` verdict. */
export interface EnforcementResult {
  result: "done" | "unavailable" | "failed";
  warning: string | null;
  error: unknown;
}

/**
 * Carries out a verdict on `event`: `warn` yields the warning text (in the channel's language) for
 * the host to send; `delete`, `timeout` and `ban` go through the target when it declares them, and
 * are `unavailable` otherwise (nothing is done). The reason given to the platform names the rule.
 */
export async function enforceVerdict(event: ChatEvent, verdict: ModerationVerdict, target: ModerationTarget | null, language: BotLanguage): Promise<EnforcementResult> {
  const action = verdict.action;
  if (action.type === "warn") {
    return { result: "done", warning: botMessage(language, "moderation_warn", { user: event.user.username, rule: verdict.rule }), error: null };
  }
  const support = target?.support();
  const can = support !== undefined && (action.type === "delete" ? support.deleteMessage : support[action.type]);
  if (target === null || !can) return { result: "unavailable", warning: null, error: null };
  const reason = `auto-moderation: ${verdict.rule}`;
  try {
    if (action.type === "delete") await target.deleteMessage(event.channel, event.id);
    else if (action.type === "timeout") await target.timeout(event.channel, event.user.platform_id, action.seconds, reason);
    else await target.ban(event.channel, event.user.platform_id, reason);
    return { result: "done", warning: null, error: null };
  } catch (error) {
    return { result: "failed", warning: null, error };
  }
}
