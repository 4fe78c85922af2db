import type { QuoteView as Quote } from "@ovation/client/http";
import { useState } from "preact/hooks";
import type { FieldErrors } from "../../ui/errors.js";
import { messageOf } from "../../ui/errors.js";
import { FormErrors, TextAreaField, TextField } from "../../ui/field.js";
import { useConfirm } from "../../ui/confirm.js";
import { useToast } from "../../ui/toast.js";
import { useClient } from "../kit/client.js";
import { formErrorsOf } from "../kit/form-errors.js";
import { LoadState } from "../kit/load-state.js";
import { useLoad } from "../kit/use-load.js";

interface Draft {
  text: string;
  game: string;
  title: string;
}

const emptyDraft: Draft = { text: "", game: "", title: "" };
const body = (draft: Draft) => ({ text: draft.text, game: draft.game.trim() === "" ? null : draft.game, title: draft.title.trim() === "" ? null : draft.title });

/** The fields of a quote (new or edited), with the server's errors under each. */
function QuoteFields({ draft, setDraft, errors }: { draft: Draft; setDraft: (draft: Draft) => void; errors: FieldErrors }) {
  return (
    <>
      <TextAreaField label="Quote" name="text" value={draft.text} onChange={(text) => setDraft({ ...draft, text })} errors={errors} rows={2} />
      <div class="form-grid">
        <TextField label="Game or category" name="game" value={draft.game} onChange={(game) => setDraft({ ...draft, game })} errors={errors} maxLength={200} />
        <TextField label="Stream title" name="title" value={draft.title} onChange={(title) => setDraft({ ...draft, title })} errors={errors} maxLength={300} />
      </div>
      <FormErrors errors={errors} shown={["text", "game", "title"]} />
    </>
  );
}

function NewQuote({ onCreated }: { onCreated: (quote: Quote) => void }) {
  const client = useClient();
  const toast = useToast();
  const [draft, setDraft] = useState<Draft>(emptyDraft);
  const [errors, setErrors] = useState<FieldErrors>({});
  const create = async (event: Event) => {
    event.preventDefault();
    try {
      const quote = await client.quotes.create(body(draft));
      onCreated(quote);
      setDraft(emptyDraft);
      setErrors({});
      toast("success", `Added quote #${quote.id}.`);
    } catch (error) {
      setErrors(formErrorsOf(error));
    }
  };
  return (
    <form class="card stack" aria-labelledby="new-quote-heading" onSubmit={(event) => void create(event)}>
      <h2 id="new-quote-heading">New quote</h2>
      <QuoteFields draft={draft} setDraft={setDraft} errors={errors} />
      <div class="actions">
        <button type="submit" class="button primary">
          Add quote
        </button>
      </div>
    </form>
  );
}

function QuoteCard({ quote, onChanged, onDeleted }: { quote: Quote; onChanged: (quote: Quote) => void; onDeleted: () => void }) {
  const client = useClient();
  const toast = useToast();
  const confirm = useConfirm();
  const [editing, setEditing] = useState<Draft | null>(null);
  const [errors, setErrors] = useState<FieldErrors>({});
  const save = async (event: Event) => {
    event.preventDefault();
    if (editing === null) return;
    try {
      onChanged(await client.quotes.replace(quote.id, body(editing)));
      setEditing(null);
      setErrors({});
    } catch (error) {
      setErrors(formErrorsOf(error));
    }
  };
  const remove = async () => {
    if (!(await confirm({ title: `Delete quote #${quote.id}?`, message: "Its number is not given to another quote.", confirmLabel: "Delete", danger: true }))) return;
    try {
      await client.quotes.delete(quote.id);
      onDeleted();
    } catch (error) {
      toast("error", messageOf(error));
    }
  };
  const where = [quote.game, quote.title].filter((part): part is string => part !== null && part !== "").join(" · ");
  return (
    <li class="card stack" data-quote={quote.id}>
      {editing === null ? (
        <>
          <div class="source-head">
            <h2 class="card-title">#{quote.id}</h2>
            <span class="muted">
              <time dateTime={quote.said_at}>{new Date(quote.said_at).toLocaleDateString()}</time>
              {quote.added_by === null ? "" : ` · added by ${quote.added_by}`}
            </span>
          </div>
          <blockquote class="quote-text">{quote.text}</blockquote>
          {where === "" ? null : <p class="cell-sub">{where}</p>}
          <div class="actions">
            <button type="button" class="button secondary small" aria-label={`Edit quote #${quote.id}`} onClick={() => setEditing({ text: quote.text, game: quote.game ?? "", title: quote.title ?? "" })}>
              Edit
            </button>
            <button type="button" class="button secondary small" aria-label={`Delete quote #${quote.id}`} onClick={() => void remove()}>
              Delete
            </button>
          </div>
        </>
      ) : (
        <form class="stack" aria-label={`Edit quote #${quote.id}`} onSubmit={(event) => void save(event)}>
          <QuoteFields draft={editing} setDraft={setEditing} errors={errors} />
          <div class="actions">
            <button type="submit" class="button primary small">
              Save
            </button>
            <button type="button" class="button secondary small" onClick={() => setEditing(null)}>
              Cancel
            </button>
          </div>
        </form>
      )}
    </li>
  );
}

/** Quotes: the channel's quote book; `!quote add` in chat and this page fill it. */
export default function Quotes() {
  const client = useClient();
  const loaded = useLoad(async () => (await client.quotes.list()).data, [client]);
  return (
    <div class="stack">
      <div class="toolbar">
        <p class="lead">Lines worth keeping. Moderators add them in chat with !quote add; anyone shows one with !quote or !quote 12.</p>
        <span class="spacer" />
        <button type="button" class="button secondary small" onClick={() => void loaded.reload()}>
          Refresh
        </button>
      </div>
      <LoadState loaded={loaded} what="Quotes">
        {(quotes) =>
          quotes.length === 0 ? (
            <p class="card muted">No quotes yet.</p>
          ) : (
            <ul class="plugin-list" aria-label="Quotes">
              {quotes.map((quote) => (
                <QuoteCard
                  key={quote.id}
                  quote={quote}
                  onChanged={(next) => loaded.set((list) => (list ?? []).map((q) => (q.id === next.id ? next : q)))}
                  onDeleted={() => loaded.set((list) => (list ?? []).filter((q) => q.id !== quote.id))}
                />
              ))}
            </ul>
          )
        }
      </LoadState>
      <NewQuote onCreated={(quote) => loaded.set((list) => [...(list ?? []), quote])} />
    </div>
  );
}
