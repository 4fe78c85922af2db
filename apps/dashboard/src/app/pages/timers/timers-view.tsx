import type { TimerInput, TimerView } from "@ovation/client";
import { useEffect, useState } from "preact/hooks";
import type { FieldErrors } from "../../ui/errors.js";
import { messageOf } from "../../ui/errors.js";
import { FormErrors, NumberField, TextAreaField, TextField } from "../../ui/field.js";
import { useConfirm } from "../../ui/confirm.js";
import { useToast } from "../../ui/toast.js";
import { useClient } from "../kit/client.js";
import { formErrorsOf } from "../kit/form-errors.js";
import { LoadState } from "../kit/load-state.js";
import { useLoad } from "../kit/use-load.js";

/** How often the page asks again (the server checks timers every 15 s). */
const REFRESH_MS = 15_000;

/** "in 4 min", "now": when the timer may post next on a platform. */
function whenNext(at: number, now: number): string {
  const minutes = Math.ceil((at - now) / 60_000);
  return minutes <= 0 ? "now" : `in ${minutes} min`;
}

/** What the timer waits for on each platform where chat was seen. */
function nextRun(timer: TimerView, now: number): string {
  if (!timer.enabled) return "Disabled";
  if (!timer.live) return "Waits for the stream to go live";
  if (timer.status.length === 0) return "Waits for the first chat line";
  return timer.status
    .map((s) => {
      const missing = timer.min_chat_lines - s.lines;
      return `${s.platform}: ${missing > 0 ? `after ${missing} more chat line${missing === 1 ? "" : "s"}` : whenNext(s.next_post_at, now)}`;
    })
    .join(" · ");
}

function NewTimer({ onCreated }: { onCreated: (timer: TimerView) => void }) {
  const client = useClient();
  const toast = useToast();
  const [name, setName] = useState("");
  const [message, setMessage] = useState("");
  const [interval, setInterval] = useState<number | null>(15);
  const [lines, setLines] = useState<number | null>(5);
  const [errors, setErrors] = useState<FieldErrors>({});
  const create = async (event: Event) => {
    event.preventDefault();
    try {
      const timer = await client.timers.create({ name, message, interval_minutes: interval ?? 0, min_chat_lines: lines ?? 0 });
      onCreated(timer);
      setName("");
      setMessage("");
      setErrors({});
      toast("success", `Created the timer ${timer.name}.`);
    } catch (error) {
      setErrors(formErrorsOf(error));
    }
  };
  return (
    <form class="card stack" aria-labelledby="new-timer-heading" onSubmit={(event) => void create(event)}>
      <h2 id="new-timer-heading">New timer</h2>
      <div class="form-grid">
        <TextField label="Name" name="name" value={name} onChange={setName} errors={errors} required maxLength={64} input={{ autocomplete: "off" }} />
        <NumberField label="Every (minutes)" name="interval_minutes" value={interval} onChange={setInterval} errors={errors} min={1} max={1440} step={1} />
        <NumberField label="Chat lines needed in between" name="min_chat_lines" value={lines} onChange={setLines} errors={errors} min={0} step={1} />
      </div>
      <TextAreaField label="Message" name="message" value={message} onChange={setMessage} errors={errors} rows={2} hint="A template, like a command's response: {{ event.channel.username }}…" />
      <FormErrors errors={errors} shown={["name", "message", "interval_minutes", "min_chat_lines"]} />
      <div class="actions">
        <button type="submit" class="button primary">
          Create timer
        </button>
      </div>
    </form>
  );
}

/** Timers: the bot's repeated messages, whether the stream is live, and when each may post next. */
export default function Timers() {
  const client = useClient();
  const toast = useToast();
  const confirm = useConfirm();
  const loaded = useLoad(async () => (await client.timers.list()).data, []);
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const every = window.setInterval(() => {
      setNow(Date.now());
      void loaded.reload();
    }, REFRESH_MS);
    return () => window.clearInterval(every);
  }, [loaded.reload]);
  const live = loaded.data?.[0]?.live;
  const toggle = async (timer: TimerView) => {
    try {
      const { id, name, message, interval_minutes, min_chat_lines, platforms, send_as } = timer;
      const next = await client.timers.replace(id, { name, message, interval_minutes, min_chat_lines, platforms, send_as: send_as as TimerInput["send_as"], enabled: !timer.enabled });
      loaded.set((list) => (list ?? []).map((t) => (t.id === id ? next : t)));
    } catch (error) {
      toast("error", messageOf(error));
    }
  };
  const remove = async (timer: TimerView) => {
    if (!(await confirm({ title: `Delete ${timer.name}?`, message: "The bot stops posting it.", confirmLabel: "Delete", danger: true }))) return;
    try {
      await client.timers.delete(timer.id);
      loaded.set((list) => (list ?? []).filter((t) => t.id !== timer.id));
    } catch (error) {
      toast("error", messageOf(error));
    }
  };
  return (
    <div class="stack">
      <div class="toolbar">
        <p class="lead">Messages the bot posts again and again while you are live, when enough chat happened in between.</p>
        <span class="spacer" />
        {live === undefined ? null : (
          <span class={`badge ${live ? "active" : ""}`} role="status" data-live={String(live)}>
            {live ? "● Live" : "Offline"}
          </span>
        )}
        <button type="button" class="button secondary small" onClick={() => void loaded.reload().then(() => setNow(Date.now()))}>
          Refresh
        </button>
      </div>
      <LoadState loaded={loaded} what="Timers">
        {(timers) =>
          timers.length === 0 ? (
            <p class="card muted">No timers yet. Timers post only while the stream is live: try one with the event simulator's "Stream goes live".</p>
          ) : (
            <ul class="plugin-list" aria-label="Timers">
              {timers.map((timer) => (
                <li key={timer.id} class="card stack" data-timer={timer.name}>
                  <div class="source-head">
                    <h2 class="card-title">{timer.name}</h2>
                    <span class={timer.enabled ? "badge active" : "badge"}>{timer.enabled ? "On" : "Off"}</span>
                  </div>
                  <p class="cell-sub">{timer.message}</p>
                  <dl class="facts">
                    <dt>Every</dt>
                    <dd>
                      {timer.interval_minutes} min, after {timer.min_chat_lines} chat line{timer.min_chat_lines === 1 ? "" : "s"}
                    </dd>
                    <dt>Next</dt>
                    <dd class="timer-next">{nextRun(timer, now)}</dd>
                  </dl>
                  <div class="actions">
                    <button type="button" class="button secondary small" onClick={() => void toggle(timer)}>
                      {timer.enabled ? `Turn ${timer.name} off` : `Turn ${timer.name} on`}
                    </button>
                    <button type="button" class="button secondary small" aria-label={`Delete ${timer.name}`} onClick={() => void remove(timer)}>
                      Delete
                    </button>
                  </div>
                </li>
              ))}
            </ul>
          )
        }
      </LoadState>
      <NewTimer onCreated={(timer) => loaded.set((list) => [...(list ?? []), timer])} />
    </div>
  );
}
