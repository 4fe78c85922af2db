import type { ViewerQueue } from "@ovation/client";
import { useEffect, useState } from "preact/hooks";
import { messageOf } from "../../ui/errors.js";
import { CheckboxField, NumberField } from "../../ui/field.js";
import { useToast } from "../../ui/toast.js";
import { useClient } from "../kit/client.js";
import { LoadState } from "../kit/load-state.js";
import { SourceAddress } from "../kit/source-address.js";
import { useLoad } from "../kit/use-load.js";

/** While the queue is open the page asks for it again this often. */
const REFRESH_MS = 2_000;

function Settings({ queue, onSaved }: { queue: ViewerQueue; onSaved: (next: ViewerQueue) => void }) {
  const client = useClient();
  const toast = useToast();
  const [priority, setPriority] = useState(queue.settings.subscriber_priority);
  const [max, setMax] = useState<number | null>(queue.settings.max_entries);
  const [announce, setAnnounce] = useState(queue.settings.announce);
  const save = async (event: Event) => {
    event.preventDefault();
    try {
      onSaved(await client.queue.configure({ subscriber_priority: priority, max_entries: max ?? 1000, announce }));
      toast("success", "Queue settings saved.");
    } catch (error) {
      toast("error", messageOf(error));
    }
  };
  return (
    <form class="card stack" aria-labelledby="queue-settings-heading" onSubmit={(event) => void save(event)}>
      <h2 id="queue-settings-heading">Settings</h2>
      <div class="form-grid">
        <CheckboxField label="Subscribers first (in the order they joined)" name="subscriber_priority" checked={priority} onChange={setPriority} />
        <NumberField label="Most viewers waiting" name="max_entries" value={max} onChange={setMax} min={1} max={1000} step={1} />
        <CheckboxField label="Announce opening, closing and picks in chat" name="announce" checked={announce} onChange={setAnnounce} />
      </div>
      <div class="actions">
        <button type="submit" class="button primary">
          Save
        </button>
      </div>
    </form>
  );
}

function Current({ queue, onChanged }: { queue: ViewerQueue; onChanged: (next: ViewerQueue) => void }) {
  const client = useClient();
  const toast = useToast();
  const [busy, setBusy] = useState(false);
  const act = async (run: () => Promise<ViewerQueue>) => {
    setBusy(true);
    try {
      onChanged(await run());
    } catch (error) {
      toast("error", messageOf(error));
    } finally {
      setBusy(false);
    }
  };
  const pick = (mode: "next" | "random") => act(async () => (await client.queue.pick({ mode })).queue);
  return (
    <section class="card stack" aria-labelledby="queue-heading" data-open={String(queue.open)}>
      <div class="source-head">
        <h2 id="queue-heading" class="card-title">
          Queue
        </h2>
        <span class={queue.open ? "badge active" : "badge"}>{queue.open ? "Open" : "Closed"}</span>
      </div>
      <p role="status">
        {queue.count} waiting{queue.open ? " · viewers type !join" : ""}
      </p>
      {queue.entries.length > 0 ? (
        <ol class="entries" aria-label="Waiting viewers">
          {queue.entries.map((e) => (
            <li key={`${e.platform}:${e.user_platform_id}`} data-entry={e.username}>
              <strong>{e.username}</strong> <span class="muted">{e.platform}</span>
              {e.subscriber ? <span class="badge">subscriber</span> : null}
              {e.note ? <span class="muted"> · {e.note}</span> : null}{" "}
              <button type="button" class="button secondary small" disabled={busy} aria-label={`Remove ${e.username}`} onClick={() => void act(async () => {
                  await client.queue.remove(e);
                  return client.queue.get();
                })}>
                Remove
              </button>
            </li>
          ))}
        </ol>
      ) : (
        <p class="muted">Nobody is waiting.</p>
      )}
      <div class="actions">
        <button type="button" class="button secondary" disabled={busy} onClick={() => void act(() => (queue.open ? client.queue.close() : client.queue.open()))}>
          {queue.open ? "Close the queue" : "Open the queue"}
        </button>
        <button type="button" class="button primary" disabled={busy || queue.count === 0} onClick={() => void pick("next")}>
          Pick next
        </button>
        <button type="button" class="button secondary" disabled={busy || queue.count === 0} onClick={() => void pick("random")}>
          Pick at random
        </button>
        <button type="button" class="button secondary" disabled={busy || queue.count === 0} onClick={() => void act(async () => {
            await client.queue.clear();
            return client.queue.get();
          })}>
          Empty
        </button>
      </div>
      {queue.picked.length > 0 ? (
        <div class="stack">
          <h3>Picked</h3>
          <ol class="winners" aria-label="Picked viewers">
            {queue.picked.map((p) => (
              <li key={`${p.platform}:${p.user_platform_id}:${p.picked_at}`} data-picked={p.username}>
                <strong>{p.username}</strong> <span class="muted">{p.platform}</span>
                {p.note ? <span class="muted"> · {p.note}</span> : null}
              </li>
            ))}
          </ol>
        </div>
      ) : null}
    </section>
  );
}

/** The viewer queue: viewers `!join` in chat; pick the next in line or at random. */
export default function Queue() {
  const client = useClient();
  const loaded = useLoad(() => client.queue.get(), []);
  const open = loaded.data?.open === true;
  useEffect(() => {
    if (!open) return;
    const every = window.setInterval(() => void loaded.reload(), REFRESH_MS);
    return () => window.clearInterval(every);
  }, [open, loaded.reload]);
  return (
    <div class="stack">
      <p class="lead">Viewers line up with !join (a note after it, such as a gamer tag, is kept), ask !position, leave with !leave.</p>
      <LoadState loaded={loaded} what="The queue">
        {(queue) => (
          <>
            <Current queue={queue} onChanged={(next) => loaded.set(() => next)} />
            <Settings queue={queue} onSaved={(next) => loaded.set(() => next)} />
          </>
        )}
      </LoadState>
      <SourceAddress type="queue" what="the queue" />
    </div>
  );
}
