import type { Giveaway } from "@ovation/client";
import { useEffect, useState } from "preact/hooks";
import type { FieldErrors } from "../../ui/errors.js";
import { messageOf } from "../../ui/errors.js";
import { CheckboxField, FormErrors, NumberField, SelectField, TextField } from "../../ui/field.js";
import { useToast } from "../../ui/toast.js";
import { useClient } from "../kit/client.js";
import { formErrorsOf } from "../kit/form-errors.js";
import { LoadState } from "../kit/load-state.js";
import { useLoad } from "../kit/use-load.js";

/** While a giveaway is open the page asks for new entries this often. */
const ENTRIES_REFRESH_MS = 2_000;

const ELIGIBILITY = [
  { value: "everyone", label: "Everyone" },
  { value: "followers", label: "Followers" },
  { value: "subscribers", label: "Subscribers" },
] as const;

function OpenGiveaway({ onOpened }: { onOpened: (giveaway: Giveaway) => void }) {
  const client = useClient();
  const [keyword, setKeyword] = useState("!join");
  const [title, setTitle] = useState("");
  const [eligibility, setEligibility] = useState<string>("everyone");
  const [weight, setWeight] = useState<number | null>(1);
  const [announce, setAnnounce] = useState(true);
  const [errors, setErrors] = useState<FieldErrors>({});
  const open = async (event: Event) => {
    event.preventDefault();
    try {
      onOpened(await client.giveaways.open({ keyword, title, eligibility: eligibility as (typeof ELIGIBILITY)[number]["value"], subscriber_weight: weight ?? 1, announce }));
      setErrors({});
    } catch (error) {
      setErrors(formErrorsOf(error));
    }
  };
  return (
    <form class="card stack" aria-labelledby="open-giveaway-heading" onSubmit={(event) => void open(event)}>
      <h2 id="open-giveaway-heading">Open a giveaway</h2>
      <div class="form-grid">
        <TextField label="Keyword" name="keyword" value={keyword} onChange={setKeyword} errors={errors} required maxLength={32} hint="Viewers enter by writing it as the first word of a chat message." input={{ autocomplete: "off", spellcheck: false }} />
        <TextField label="Title (optional)" name="title" value={title} onChange={setTitle} errors={errors} maxLength={100} />
        <SelectField label="Who may enter" name="eligibility" value={eligibility} onChange={setEligibility} options={ELIGIBILITY} errors={errors} />
        <NumberField label="Tickets of a subscriber" name="subscriber_weight" value={weight} onChange={setWeight} errors={errors} min={1} max={10} step={1} />
        <CheckboxField label="Announce opening, closing and winners in chat" name="announce" checked={announce} onChange={setAnnounce} errors={errors} />
      </div>
      <FormErrors errors={errors} shown={["keyword", "title", "eligibility", "subscriber_weight", "announce"]} />
      <div class="actions">
        <button type="submit" class="button primary">
          Open giveaway
        </button>
      </div>
    </form>
  );
}

function CurrentGiveaway({ giveaway, onChanged }: { giveaway: Giveaway; onChanged: (next: Giveaway) => void }) {
  const client = useClient();
  const toast = useToast();
  const [count, setCount] = useState<number | null>(1);
  const [busy, setBusy] = useState(false);
  const act = async (run: () => Promise<Giveaway>) => {
    setBusy(true);
    try {
      onChanged(await run());
    } catch (error) {
      toast("error", messageOf(error));
    } finally {
      setBusy(false);
    }
  };
  const open = giveaway.status === "open";
  const winners = giveaway.winners;
  return (
    <section class="card stack giveaway" aria-labelledby="giveaway-heading" data-status={giveaway.status}>
      <div class="source-head">
        <h2 id="giveaway-heading" class="card-title">
          {giveaway.settings.title || "Giveaway"} <span class="muted">{giveaway.settings.keyword}</span>
        </h2>
        <span class={open ? "badge active" : "badge"}>{open ? "Open" : "Closed"}</span>
      </div>
      <p class="entry-count" role="status">
        {giveaway.entry_count} entr{giveaway.entry_count === 1 ? "y" : "ies"}, {giveaway.ticket_count} ticket{giveaway.ticket_count === 1 ? "" : "s"}
        {giveaway.settings.announce ? " · announced in chat" : ""}
      </p>
      {giveaway.entries.length > 0 ? (
        <ul class="entries" aria-label="Entries">
          {giveaway.entries.map((e) => (
            <li key={`${e.platform}:${e.user_platform_id}`} data-entry={e.username}>
              {e.username} <span class="muted">{e.platform}</span>
              {e.weight > 1 ? <span class="badge">{e.weight} tickets</span> : null}
            </li>
          ))}
        </ul>
      ) : (
        <p class="muted">{open ? "Waiting for the first entry…" : "Nobody entered."}</p>
      )}
      {winners.length > 0 ? (
        <div class="stack">
          <h3>Winners</h3>
          <ol class="winners" aria-label="Winners">
            {winners.map((w) => (
              <li key={`${w.platform}:${w.user_platform_id}:${w.drawn_at}`} data-winner={w.username} data-rerolled={String(w.rerolled)}>
                {w.rerolled ? <s>{w.username}</s> : <strong>{w.username}</strong>} <span class="muted">{w.platform}</span>
                {w.rerolled ? (
                  <span class="badge">rerolled</span>
                ) : (
                  <button
                    type="button"
                    class="button secondary small"
                    disabled={busy}
                    aria-label={`Reroll ${w.username}`}
                    onClick={() => void act(async () => (await client.giveaways.reroll({ platform: w.platform, user_platform_id: w.user_platform_id })).giveaway)}
                  >
                    Reroll
                  </button>
                )}
              </li>
            ))}
          </ol>
        </div>
      ) : null}
      <div class="actions">
        {open ? (
          <button type="button" class="button secondary" disabled={busy} onClick={() => void act(() => client.giveaways.close())}>
            Close entries
          </button>
        ) : null}
        <NumberField label="Winners to draw" name="count" value={count} onChange={setCount} min={1} max={100} step={1} />
        <button type="button" class="button primary" disabled={busy || giveaway.entry_count === 0} onClick={() => void act(async () => (await client.giveaways.draw({ count: count ?? 1 })).giveaway)}>
          Draw
        </button>
      </div>
    </section>
  );
}

/** Giveaways: open one, watch entries arrive, close, draw, reroll; the bot announces in chat. */
export default function Giveaways() {
  const client = useClient();
  // Wrapped: "no giveaway yet" (null) must not read as "still loading".
  const loaded = useLoad(async () => ({ giveaway: (await client.giveaways.current()).data }), []);
  const open = loaded.data?.giveaway?.status === "open";
  useEffect(() => {
    if (!open) return;
    const every = window.setInterval(() => void loaded.reload(), ENTRIES_REFRESH_MS);
    return () => window.clearInterval(every);
  }, [open, loaded.reload]);
  return (
    <div class="stack">
      <p class="lead">Viewers enter by typing a keyword in chat; winners are drawn at random (subscribers may hold more tickets).</p>
      <LoadState loaded={loaded} what="The giveaway">
        {({ giveaway }) => (
          <>
            {giveaway === null ? <p class="card muted">No giveaway has run yet.</p> : <CurrentGiveaway giveaway={giveaway} onChanged={(next) => loaded.set(() => ({ giveaway: next }))} />}
            {giveaway?.status === "open" ? null : <OpenGiveaway onOpened={(next) => loaded.set(() => ({ giveaway: next }))} />}
          </>
        )}
      </LoadState>
    </div>
  );
}
