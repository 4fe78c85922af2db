import { z } from "zod";

/** Bounds of polls; documented in docs/polls.md. */
export const POLL_LIMITS = {
  titleLength: 100,
  choiceLength: 60,
  minChoices: 2,
  maxChoices: 10,
  minSeconds: 15,
  /** A day. */
  maxSeconds: 86_400,
  /** Viewers whose chat vote one poll keeps (later voters are told the poll is full). */
  maxVoters: 20_000,
  /** Ended polls kept for the API. */
  history: 10,
} as const;

/** A poll as it is started (API body, `!poll start`). */
export const pollInputSchema = z.object({
  title: z.string().trim().min(1).max(POLL_LIMITS.titleLength),
  choices: z.array(z.string().trim().min(1).max(POLL_LIMITS.choiceLength)).min(POLL_LIMITS.minChoices).max(POLL_LIMITS.maxChoices),
  duration_seconds: z.number().int().min(POLL_LIMITS.minSeconds).max(POLL_LIMITS.maxSeconds).default(120),
  /** Run the platform's own poll where its plugin offers one (Twitch); chat votes elsewhere. */
  native: z.boolean().default(true),
  /** Say in chat when the poll starts and how it ended. */
  announce: z.boolean().default(true),
});

/** A poll as it is started. */
export type PollInput = z.input<typeof pollInputSchema>;

/** A poll as it is stored (table `polls`, key `current`; votes are one field per poll, not per viewer). */
export const pollStateSchema = z.object({
  id: z.string(),
  title: z.string(),
  choices: z.array(z.object({ title: z.string(), votes: z.number().int().min(0), native_votes: z.number().int().min(0) })),
  status: z.enum(["open", "ended"]),
  opened_at: z.number().int(),
  ends_at: z.number().int(),
  ended_at: z.number().int().nullable(),
  /** The platforms running their own poll, with its id there. */
  native: z.array(
    z.object({
      platform: z.string(),
      poll_id: z.string(),
      status: z.enum(["running", "ended"]),
      /** That platform's votes per choice, as it last told them. */
      votes: z.array(z.number().int().min(0)),
    }),
  ),
  /** The platforms asked for their own poll that could not run it, and why (they vote in chat). */
  native_unavailable: z.array(z.object({ platform: z.string(), reason: z.string() })),
  /** `platform\u0000user id` -> the chosen choice's index. */
  votes: z.record(z.string(), z.number().int().min(0)),
  announce: z.boolean(),
});

/** A poll as it is stored. */
export type PollState = z.output<typeof pollStateSchema>;

/** A poll's choice with its standing. */
export interface PollChoiceView {
  /** 1-based, what `!vote` takes. */
  number: number;
  title: string;
  /** Chat votes plus the platforms' own votes. */
  votes: number;
  /** Whole percent of all votes. */
  percent: number;
}

/** A poll as the API, the dashboard and the `poll` browser source see it. */
export interface PollView {
  id: string;
  title: string;
  status: "open" | "ended";
  opened_at: number;
  ends_at: number;
  ended_at: number | null;
  choices: PollChoiceView[];
  total: number;
  /** Numbers of the leading choices (several on a tie; none before a vote). */
  leading: number[];
  native: { platform: string; poll_id: string; status: "running" | "ended" }[];
  native_unavailable: { platform: string; reason: string }[];
}

/** The public view of a poll. */
export function pollView(state: PollState): PollView {
  const counts = state.choices.map((c) => c.votes + c.native_votes);
  const total = counts.reduce((sum, n) => sum + n, 0);
  const top = Math.max(0, ...counts);
  return {
    id: state.id,
    title: state.title,
    status: state.status,
    opened_at: state.opened_at,
    ends_at: state.ends_at,
    ended_at: state.ended_at,
    choices: state.choices.map((c, i) => ({ number: i + 1, title: c.title, votes: counts[i] ?? 0, percent: total === 0 ? 0 : Math.round(((counts[i] ?? 0) * 100) / total) })),
    total,
    leading: top === 0 ? [] : counts.flatMap((n, i) => (n === top ? [i + 1] : [])),
    native: state.native.map((n) => ({ platform: n.platform, poll_id: n.poll_id, status: n.status })),
    native_unavailable: state.native_unavailable.map((n) => ({ ...n })),
  };
}

/** What starting a poll did: started (its view), or not because one is open. */
export type PollStartOutcome = { started: true; poll: PollView } | { started: false; reason: "already_open" };
