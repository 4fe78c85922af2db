import type { OvationClient } from "@ovation/client/http";
import { useMemo } from "preact/hooks";
import { useApp } from "../../app-context.js";

/**
 * One client for a page that calls both hosts: the API client of the tab, with the identity calls
 * (`account`, `tokens`, `eat`, `security`: `/api/...`) on the identity client, which is another
 * host when the identity module runs elsewhere.
 */
export function useClient(): OvationClient {
  const { api, identity } = useApp();
  return useMemo(() => (api === identity ? api : { ...api, account: identity.account, tokens: identity.tokens, eat: identity.eat, security: identity.security }), [api, identity]);
}
