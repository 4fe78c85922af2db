import type { Counter } from "@ovation/client";
import { useRef, useState } from "preact/hooks";
import { errorsUnder, fieldErrorsOf, messageOf } from "../ui/errors.js";
import type { FieldErrors } from "../ui/errors.js";
import { CheckboxField, FormErrors, NumberField, TextField } from "../ui/field.js";
import { useConfirm } from "../ui/confirm.js";
import { useToast } from "../ui/toast.js";
import { useClient } from "./kit/client.js";
import { LoadState } from "./kit/load-state.js";
import { useLoad } from "./kit/use-load.js";

/** The 422 of a one-item request names fields `0.<field>`: the errors of that item, or the message. */
function itemErrors(error: unknown): FieldErrors {
  const fields = errorsUnder(fieldErrorsOf(error), "0.");
  return Object.keys(fields).length > 0 ? fields : { "(root)": [messageOf(error)] };
}

function CounterRow({ counter, onChanged, onDeleted }: { counter: Counter; onChanged: (next: Counter) => void; onDeleted: (name: string) => void }) {
  const client = useClient();
  const toast = useToast();
  const confirm = useConfirm();
  const [keyword, setKeyword] = useState(counter.keyword ?? "");
  const [value, setValue] = useState<number | null>(counter.value);
  const [active, setActive] = useState(counter.active);
  const [errors, setErrors] = useState<FieldErrors>({});
  const dirty = keyword !== (counter.keyword ?? "") || value !== counter.value || active !== counter.active;

  // Quick clicks send one step at a time: two steps in flight could be answered out of order, and
  // the older answer (1) would then overwrite the newer one (2) on the card.
  const steps = useRef<Promise<void>>(Promise.resolve());
  const step = (operation: "increment" | "decrement") => {
    steps.current = steps.current.then(async () => {
      try {
        const [next] = await client.counters.changeValues([{ name: counter.name, value: 1, operation }]);
        if (next) {
          onChanged(next);
          setValue(next.value);
        }
      } catch (error) {
        toast("error", messageOf(error));
      }
    });
    return steps.current;
  };

  const save = async (event: Event) => {
    event.preventDefault();
    try {
      const [next] = await client.counters.update([{ name: counter.name, keyword: keyword.trim() === "" ? null : keyword.trim(), value, active }]);
      if (next) onChanged(next);
      setErrors({});
      toast("success", `Saved ${counter.name}.`);
    } catch (error) {
      setErrors(itemErrors(error));
    }
  };

  const remove = async () => {
    if (!(await confirm({ title: `Delete ${counter.name}?`, message: "Its value and keyword are removed. Templates reading it get nothing.", confirmLabel: "Delete", danger: true }))) return;
    try {
      await client.counters.delete([{ name: counter.name }]);
      onDeleted(counter.name);
      toast("success", `Deleted ${counter.name}.`);
    } catch (error) {
      toast("error", messageOf(error));
    }
  };

  return (
    <li class="card counter-card" data-counter={counter.name}>
      <form class="stack" onSubmit={(event) => void save(event)} aria-label={`Counter ${counter.name}`}>
        <div class="counter-head">
          <h2 class="card-title">{counter.name}</h2>
          <span class="counter-value" aria-label={`${counter.name} is ${counter.value ?? "not set"}`}>
            {counter.value ?? "—"}
          </span>
          <span class="toolbar">
            <button type="button" class="button secondary small" aria-label={`Take 1 from ${counter.name}`} onClick={() => void step("decrement")}>
              −1
            </button>
            <button type="button" class="button secondary small" aria-label={`Add 1 to ${counter.name}`} onClick={() => void step("increment")}>
              +1
            </button>
          </span>
        </div>
        <div class="form-grid">
          <TextField label="Chat keyword" name="keyword" value={keyword} onChange={setKeyword} errors={errors} maxLength={33} hint="Viewers type !keyword to see it; mods add + or -." input={{ autocomplete: "off", spellcheck: false }} />
          <NumberField label="Value" name="value" value={value} onChange={setValue} errors={errors} step={1} />
          <CheckboxField label="Answers in chat" name="active" checked={active} onChange={setActive} errors={errors} />
        </div>
        <FormErrors errors={errors} shown={["keyword", "value", "active"]} />
        <div class="actions">
          <button type="button" class="button secondary small" onClick={() => void remove()}>
            Delete
          </button>
          <button type="submit" class="button primary small" disabled={!dirty}>
            Save
          </button>
        </div>
      </form>
    </li>
  );
}

function NewCounter({ onCreated }: { onCreated: (counter: Counter) => void }) {
  const client = useClient();
  const toast = useToast();
  const [name, setName] = useState("");
  const [keyword, setKeyword] = useState("");
  const [errors, setErrors] = useState<FieldErrors>({});
  const create = async (event: Event) => {
    event.preventDefault();
    try {
      const [created] = await client.counters.create([{ name: name.trim(), ...(keyword.trim() === "" ? {} : { keyword: keyword.trim() }), value: 0 }]);
      if (created) onCreated(created);
      setName("");
      setKeyword("");
      setErrors({});
      toast("success", `Created ${created?.name ?? name}.`);
    } catch (error) {
      setErrors(itemErrors(error));
    }
  };
  return (
    <form class="card stack" aria-labelledby="new-counter-heading" onSubmit={(event) => void create(event)}>
      <h2 id="new-counter-heading">New counter</h2>
      <div class="form-grid">
        <TextField label="Name" name="name" value={name} onChange={setName} errors={errors} required maxLength={64} hint="Letters, digits, _ and -. Templates read it as db('counters').name." input={{ autocomplete: "off", spellcheck: false }} />
        <TextField label="Chat keyword (optional)" name="keyword" value={keyword} onChange={setKeyword} errors={errors} maxLength={33} input={{ autocomplete: "off", spellcheck: false }} />
      </div>
      <FormErrors errors={errors} shown={["name", "keyword"]} />
      <div class="actions">
        <button type="submit" class="button primary">
          Create counter
        </button>
      </div>
    </form>
  );
}

/** Counters: values, keywords, on/off in chat, create and delete. */
export default function Counters() {
  const client = useClient();
  const loaded = useLoad(() => client.counters.list(), []);
  const put = (next: Counter) => loaded.set((list) => [...(list ?? []).filter((c) => c.name !== next.name), next].sort((a, b) => a.name.localeCompare(b.name)));
  return (
    <div class="stack">
      <p class="lead">Numbers your bot keeps: deaths, wins, hugs… Chat changes them with a keyword, templates with inc() and dec().</p>
      <LoadState loaded={loaded} what="Counters">
        {(counters) =>
          counters.length === 0 ? (
            <p class="card muted">No counters yet.</p>
          ) : (
            <ul class="counter-list" aria-label="Your counters">
              {counters.map((counter) => (
                <CounterRow key={`${counter.name}:${counter.value}:${counter.keyword}:${counter.active}`} counter={counter} onChanged={put} onDeleted={(name) => loaded.set((list) => (list ?? []).filter((c) => c.name !== name))} />
              ))}
            </ul>
          )
        }
      </LoadState>
      <NewCounter onCreated={put} />
    </div>
  );
}
