import type { PollInput, PollView } from "@ovation/core";
import { botUser, callOnly } from "./schema-types.js";
import type { BotCallOptions } from "./schema-types.js";
import type { HttpClient } from "./transport.js";

/** Routes of {@link pollsApi}. */
export const POLLS_ROUTES = {
  list: { method: "GET", path: "/v1/bots/{user}/polls" },
  start: { method: "POST", path: "/v1/bots/{user}/polls" },
  end: { method: "POST", path: "/v1/bots/{user}/polls/end" },
} as const;

/** A poll as the API returns it. */
export type Poll = PollView;

/** Polls (scope `chatbot:manage:polls`; docs/polls.md). */
export function pollsApi(http: HttpClient) {
  return {
    /** `GET /v1/bots/{user}/polls`: the current (or last) poll and the ended ones before it. */
    list: (options?: BotCallOptions) => http.call<{ current: Poll | null; history: Poll[] }>(POLLS_ROUTES.list, { ...callOnly(options), params: botUser(options) }),
    /** `POST /v1/bots/{user}/polls`: start one (409 while another is open). */
    start: (poll: PollInput, options?: BotCallOptions) => http.call<Poll>(POLLS_ROUTES.start, { ...callOnly(options), params: botUser(options), body: poll }),
    /** `POST /v1/bots/{user}/polls/end`: end the open poll now (404 when none is open). */
    end: (options?: BotCallOptions) => http.call<Poll>(POLLS_ROUTES.end, { ...callOnly(options), params: botUser(options) }),
  };
}

/** The API of {@link pollsApi}. */
export type PollsApi = ReturnType<typeof pollsApi>;
