import type { Poll } from "@ovation/client";
import { useEffect, useState } from "preact/hooks";
import type { FieldErrors } from "../../ui/errors.js";
import { messageOf } from "../../ui/errors.js";
import { CheckboxField, FormErrors, NumberField, TextAreaField, TextField } from "../../ui/field.js";
import { useToast } from "../../ui/toast.js";
import { useClient } from "../kit/client.js";
import { formErrorsOf } from "../kit/form-errors.js";
import { LoadState } from "../kit/load-state.js";
import { SourceAddress } from "../kit/source-address.js";
import { useLoad } from "../kit/use-load.js";

/** While a poll is open the page asks for the votes this often. */
const REFRESH_MS = 2_000;

function StartPoll({ onStarted }: { onStarted: (poll: Poll) => void }) {
  const client = useClient();
  const [title, setTitle] = useState("");
  const [choices, setChoices] = useState("");
  const [seconds, setSeconds] = useState<number | null>(120);
  const [native, setNative] = useState(true);
  const [announce, setAnnounce] = useState(true);
  const [errors, setErrors] = useState<FieldErrors>({});
  const start = async (event: Event) => {
    event.preventDefault();
    try {
      const list = choices.split("\n").map((c) => c.trim()).filter((c) => c !== "");
      onStarted(await client.polls.start({ title, choices: list, duration_seconds: seconds ?? 120, native, announce }));
      setErrors({});
    } catch (error) {
      setErrors(formErrorsOf(error));
    }
  };
  return (
    <form class="card stack" aria-labelledby="start-poll-heading" onSubmit={(event) => void start(event)}>
      <h2 id="start-poll-heading">Start a poll</h2>
      <div class="form-grid">
        <TextField label="Question" name="title" value={title} onChange={setTitle} errors={errors} required maxLength={100} />
        <TextAreaField label="Choices, one per line (2 to 10)" name="choices" value={choices} onChange={setChoices} errors={errors} rows={5} />
        <NumberField label="Seconds" name="duration_seconds" value={seconds} onChange={setSeconds} errors={errors} min={15} max={86400} step={1} />
        <CheckboxField
          label="Twitch's own poll where it can (2 to 5 choices of 25 characters, a question of 60, up to 30 minutes); chat votes elsewhere"
          name="native"
          checked={native}
          onChange={setNative}
          errors={errors}
        />
        <CheckboxField label="Announce the poll and its result in chat" name="announce" checked={announce} onChange={setAnnounce} errors={errors} />
      </div>
      <FormErrors errors={errors} shown={["title", "choices", "duration_seconds", "native", "announce"]} />
      <div class="actions">
        <button type="submit" class="button primary">
          Start poll
        </button>
      </div>
    </form>
  );
}

function CurrentPoll({ poll, onChanged }: { poll: Poll; onChanged: (next: Poll) => void }) {
  const client = useClient();
  const toast = useToast();
  const [busy, setBusy] = useState(false);
  const end = async () => {
    setBusy(true);
    try {
      onChanged(await client.polls.end());
    } catch (error) {
      toast("error", messageOf(error));
    } finally {
      setBusy(false);
    }
  };
  const open = poll.status === "open";
  return (
    <section class="card stack" aria-labelledby="poll-heading" data-status={poll.status}>
      <div class="source-head">
        <h2 id="poll-heading" class="card-title">
          {poll.title}
        </h2>
        <span class={open ? "badge active" : "badge"}>{open ? "Open" : "Ended"}</span>
      </div>
      <ol class="entries" aria-label="Choices">
        {poll.choices.map((c) => (
          <li key={c.number} data-choice={c.number}>
            {poll.leading.includes(c.number) && !open ? <strong>{c.title}</strong> : c.title}{" "}
            <span class="muted">
              {c.votes} vote{c.votes === 1 ? "" : "s"} · {c.percent}%
            </span>
          </li>
        ))}
      </ol>
      <p role="status" class="muted">
        {poll.total} vote{poll.total === 1 ? "" : "s"}
        {poll.native.length > 0 ? ` · ${poll.native.map((n) => n.platform).join(", ")}: the platform's own poll` : ""}
        {open ? ` · ends ${new Date(poll.ends_at).toLocaleTimeString()}` : ""}
      </p>
      {poll.native_unavailable.length > 0 ? (
        <p class="muted">Chat votes instead of the platform's poll: {poll.native_unavailable.map((n) => `${n.platform} (${n.reason})`).join("; ")}</p>
      ) : null}
      {open ? (
        <div class="actions">
          <button type="button" class="button secondary" disabled={busy} onClick={() => void end()}>
            End now
          </button>
        </div>
      ) : null}
    </section>
  );
}

/** Polls: Twitch's own where it can, `!vote 1` in chat elsewhere, one tally. */
export default function Polls() {
  const client = useClient();
  const loaded = useLoad(() => client.polls.list(), []);
  const open = loaded.data?.current?.status === "open";
  useEffect(() => {
    if (!open) return;
    const every = window.setInterval(() => void loaded.reload(), REFRESH_MS);
    return () => window.clearInterval(every);
  }, [open, loaded.reload]);
  const replace = (poll: Poll) => loaded.set((current) => ({ current: poll, history: current?.history ?? [] }));
  return (
    <div class="stack">
      <p class="lead">Viewers vote with !vote 1, !vote 2…; on Twitch the platform's own poll runs when the link allows it.</p>
      <LoadState loaded={loaded} what="The polls">
        {({ current }) => (
          <>
            {current === null ? <p class="card muted">No poll has run yet.</p> : <CurrentPoll poll={current} onChanged={replace} />}
            {current?.status === "open" ? null : <StartPoll onStarted={replace} />}
          </>
        )}
      </LoadState>
      <SourceAddress type="poll" what="the current poll" />
    </div>
  );
}
