import type { BrowserSourceBootstrap } from "../../bootstrap.js";
import { runOverlay } from "../overlays/overlay-runner.js";
import type { PageStatus } from "../page-state.js";

/** A poll as the page draws it (read from `module_state` and `poll.updated`). */
export interface PollDrawing {
  id: string;
  title: string;
  status: "open" | "ended";
  ends_at: number;
  choices: { number: number; title: string; votes: number; percent: number }[];
  total: number;
  leading: number[];
}

/** Reads a poll view; null when it is not one. */
export function readPoll(payload: unknown): PollDrawing | null {
  if (payload === null || typeof payload !== "object") return null;
  const p = payload as Record<string, unknown>;
  if (typeof p.id !== "string" || typeof p.title !== "string" || (p.status !== "open" && p.status !== "ended") || !Array.isArray(p.choices)) return null;
  const num = (v: unknown) => (typeof v === "number" && Number.isFinite(v) ? v : 0);
  const choices = p.choices.flatMap((raw: unknown, i) => {
    if (raw === null || typeof raw !== "object") return [];
    const c = raw as Record<string, unknown>;
    return typeof c.title === "string" ? [{ number: num(c.number) || i + 1, title: c.title, votes: num(c.votes), percent: Math.min(100, Math.max(0, num(c.percent))) }] : [];
  });
  return {
    id: p.id,
    title: p.title,
    status: p.status,
    ends_at: num(p.ends_at),
    choices,
    total: num(p.total),
    leading: Array.isArray(p.leading) ? p.leading.filter((n): n is number => typeof n === "number") : [],
  };
}

/** Draws the poll: its title, one bar per choice (the leaders marked once it ended) and the vote count. */
export function drawPoll(stage: HTMLElement, poll: PollDrawing): void {
  const doc = stage.ownerDocument;
  const box = doc.createElement("div");
  box.className = "ovation-poll";
  box.dataset.status = poll.status;
  box.dataset.poll = poll.id;
  const title = doc.createElement("div");
  title.className = "ovation-poll-title";
  title.textContent = poll.title;
  box.append(title);
  for (const choice of poll.choices) {
    const line = doc.createElement("div");
    line.className = "ovation-poll-choice";
    line.dataset.number = String(choice.number);
    if (poll.status === "ended" && poll.leading.includes(choice.number)) line.dataset.winner = "true";
    const fill = doc.createElement("div");
    fill.className = "ovation-poll-fill";
    fill.style.width = `${choice.percent}%`;
    const label = doc.createElement("span");
    label.className = "ovation-poll-label";
    label.textContent = `${choice.number}. ${choice.title}`;
    const votes = doc.createElement("span");
    votes.className = "ovation-poll-votes";
    votes.textContent = `${choice.percent}% · ${choice.votes}`;
    line.append(fill, label, votes);
    box.append(line);
  }
  const foot = doc.createElement("div");
  foot.className = "ovation-poll-foot";
  foot.textContent = poll.status === "open" ? `${poll.total} votes · !vote 1-${poll.choices.length}` : `Poll over · ${poll.total} votes`;
  box.append(foot);
  stage.replaceChildren(box);
}

/** The `poll` page: the current (or last) poll from the config at start, redrawn on every `poll.updated`. */
export async function runPollPage(bootstrap: BrowserSourceBootstrap, stage: HTMLElement, status: PageStatus): Promise<void> {
  await runOverlay(bootstrap, status, {
    rooms: () => [],
    start: (config, socket) => {
      stage.classList.add("ovation-stage-poll");
      const first = readPoll(config.module_state);
      if (first) drawPoll(stage, first);
      else stage.replaceChildren();
      socket.on("bot-module", (update) => {
        if (update.event !== "poll.updated") return;
        const poll = readPoll(update.payload);
        if (poll) drawPoll(stage, poll);
      });
    },
    update: (config) => {
      const poll = readPoll(config.module_state);
      if (poll) drawPoll(stage, poll);
    },
    stop: () => stage.replaceChildren(),
  });
}
