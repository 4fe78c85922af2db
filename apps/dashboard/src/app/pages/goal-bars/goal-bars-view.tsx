import type { GoalBarConfig } from "@ovation/client";
import { useState } from "preact/hooks";
import type { FieldErrors } from "../../ui/errors.js";
import { messageOf } from "../../ui/errors.js";
import { FormErrors, NumberField, SelectField, TextField } from "../../ui/field.js";
import { useConfirm } from "../../ui/confirm.js";
import { useToast } from "../../ui/toast.js";
import { useClient } from "../kit/client.js";
import { formErrorsOf } from "../kit/form-errors.js";
import { LoadState } from "../kit/load-state.js";
import { useLoad } from "../kit/use-load.js";

/** The kinds of goal, with what moves each (docs/goal-bars.md). */
const KINDS = [
  { value: "followers", label: "Followers (each follow)" },
  { value: "subscribers", label: "Subscribers (subs, resubs, gifted subs)" },
  { value: "bits", label: "Bits (cheers)" },
  { value: "tips", label: "Tips (donations, Super Chats)" },
  { value: "counter", label: "A counter's value" },
] as const;

function NewGoal({ onCreated }: { onCreated: (goal: GoalBarConfig) => void }) {
  const client = useClient();
  const toast = useToast();
  const [title, setTitle] = useState("");
  const [kind, setKind] = useState<string>("followers");
  const [target, setTarget] = useState<number | null>(100);
  const [start, setStart] = useState<number | null>(0);
  const [counter, setCounter] = useState("");
  const [errors, setErrors] = useState<FieldErrors>({});
  const create = async (event: Event) => {
    event.preventDefault();
    try {
      const goal = await client.goalBars.create({
        title,
        kind: kind as GoalBarConfig["goal_bar"]["kind"],
        target: target ?? 0,
        start_value: start ?? 0,
        ...(kind === "counter" ? { counter } : {}),
      });
      onCreated(goal);
      setTitle("");
      setErrors({});
      toast("success", `Created the goal bar "${goal.goal_bar.title}". Show it on stream: Browser sources, type Goal bar.`);
    } catch (error) {
      setErrors(formErrorsOf(error));
    }
  };
  return (
    <form class="card stack" aria-labelledby="new-goal-heading" onSubmit={(event) => void create(event)}>
      <h2 id="new-goal-heading">New goal bar</h2>
      <div class="form-grid">
        <TextField label="Title" name="title" value={title} onChange={setTitle} errors={errors} required maxLength={100} hint='Shown on the bar: "Road to 100 subs".' />
        <SelectField label="Counts" name="kind" value={kind} onChange={setKind} options={KINDS} errors={errors} />
        <NumberField label="Target" name="target" value={target} onChange={setTarget} errors={errors} min={1} step="any" />
        <NumberField label="Start at" name="start_value" value={start} onChange={setStart} errors={errors} min={0} step="any" />
        {kind === "counter" ? <TextField label="Counter" name="counter" value={counter} onChange={setCounter} errors={errors} maxLength={64} input={{ autocomplete: "off", spellcheck: false }} /> : null}
      </div>
      <FormErrors errors={errors} shown={["title", "kind", "target", "start_value", "counter"]} />
      <div class="actions">
        <button type="submit" class="button primary">
          Create goal bar
        </button>
      </div>
    </form>
  );
}

/** Goal bars: create one with a kind and a target, see each one's progress. */
export default function GoalBars() {
  const client = useClient();
  const toast = useToast();
  const confirm = useConfirm();
  const loaded = useLoad(async () => (await client.goalBars.list()).data, []);
  const remove = async (goal: GoalBarConfig) => {
    if (!(await confirm({ title: `Delete "${goal.goal_bar.title}"?`, message: "Its browser source shows nothing any more.", confirmLabel: "Delete", danger: true }))) return;
    try {
      await client.goalBars.delete(goal.id);
      loaded.set((list) => (list ?? []).filter((g) => g.id !== goal.id));
    } catch (error) {
      toast("error", messageOf(error));
    }
  };
  return (
    <div class="stack">
      <div class="toolbar">
        <p class="lead">Progress towards a target, shown on stream. It moves by itself with the events of its kind.</p>
        <span class="spacer" />
        <button type="button" class="button secondary small" onClick={() => void loaded.reload()}>
          Refresh
        </button>
      </div>
      <LoadState loaded={loaded} what="Goal bars">
        {(goals) =>
          goals.length === 0 ? (
            <p class="card muted">No goal bars yet.</p>
          ) : (
            <ul class="plugin-list" aria-label="Goal bars">
              {goals.map((goal) => (
                <li key={goal.id} class="card stack" data-goal={goal.id}>
                  <div class="source-head">
                    <h2 class="card-title">{goal.goal_bar.title}</h2>
                    <span class="badge">{KINDS.find((k) => k.value === goal.goal_bar.kind)?.label.replace(/ \(.*/, "") ?? goal.goal_bar.kind}</span>
                  </div>
                  <progress max={goal.progress.target} value={goal.progress.current} aria-label={`${goal.goal_bar.title}: ${goal.progress.current} of ${goal.progress.target}`} />
                  <p class="goal-progress">
                    {goal.progress.current} / {goal.progress.target} ({goal.progress.percent} %){goal.progress.ended ? " · ended" : ""}
                  </p>
                  <div class="actions">
                    <button type="button" class="button secondary small" aria-label={`Delete ${goal.goal_bar.title}`} onClick={() => void remove(goal)}>
                      Delete
                    </button>
                  </div>
                </li>
              ))}
            </ul>
          )
        }
      </LoadState>
      <NewGoal onCreated={(goal) => loaded.set((list) => [...(list ?? []), goal])} />
    </div>
  );
}
