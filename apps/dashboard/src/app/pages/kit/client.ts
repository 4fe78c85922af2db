import type { OvationClient } from "@ovation/client/http";
import { useMemo } from "preact/hooks";
import { useApp } from "../../app-context.js";
import { clientForChannel, useChannel } from "../../channel.js";

/**
 * One client for a page that calls both hosts: the API client of the tab, with the identity calls
 * (`account`, `tokens`, `eat`, `security`: `/api/...`) on the identity client, which is another
 * host when the identity module runs elsewhere. While the user acts on a channel they manage (the
 * channel switcher), the bot families act on that channel.
 */
export function useClient(): OvationClient {
  const { api, identity } = useApp();
  const { channel } = useChannel();
  const managed = channel?.user_id ?? null;
  return useMemo(() => {
    const own = api === identity ? api : { ...api, account: identity.account, tokens: identity.tokens, eat: identity.eat, security: identity.security };
    return managed === null ? own : clientForChannel(own, managed);
  }, [api, identity, managed]);
}
