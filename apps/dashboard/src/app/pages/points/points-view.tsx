import type { PointsHistoryView as PointsHistoryEntry, PointsSettingsView as PointsSettings } from "@ovation/client/http";
import { useState } from "preact/hooks";
import type { FieldErrors } from "../../ui/errors.js";
import { fieldErrorsOf, messageOf } from "../../ui/errors.js";
import { CheckboxField, FormErrors, NumberField, SelectField, TextField } from "../../ui/field.js";
import { useToast } from "../../ui/toast.js";
import { useClient } from "../kit/client.js";
import { formErrorsOf } from "../kit/form-errors.js";
import { LoadState } from "../kit/load-state.js";
import { TableHead } from "../kit/table-head.js";
import { useLoad } from "../kit/use-load.js";

/** Rows of the leaderboard the page loads (the search filters them). */
const BOARD_SIZE = 500;

type NumberSetting = Exclude<{ [K in keyof PointsSettings]: PointsSettings[K] extends number ? K : never }[keyof PointsSettings], undefined>;

const NUMBER_SETTINGS: readonly { name: NumberSetting; label: string; hint?: string; max: number }[] = [
  { name: "per_minute", label: "Per minute watched", hint: "For each viewer seen in chat in the last minutes below, while live.", max: 10_000 },
  { name: "active_minutes", label: "Counts as watching for (minutes)", hint: "After a viewer's last chat line.", max: 120 },
  { name: "subscriber_bonus", label: "Subscriber bonus per minute", max: 10_000 },
  { name: "per_message", label: "Per chat message", hint: "While live; commands earn nothing.", max: 10_000 },
  { name: "message_cooldown_seconds", label: "Message cooldown (seconds)", max: 3_600 },
  { name: "follow", label: "Per follow", max: 1_000_000 },
  { name: "subscriber", label: "Per subscription", max: 1_000_000 },
  { name: "cheer_per_100", label: "Per 100 bits", max: 1_000_000 },
  { name: "tip_per_unit", label: "Per unit of money tipped", max: 1_000_000 },
];

function Settings({ initial, onSaved }: { initial: PointsSettings; onSaved: (settings: PointsSettings) => void }) {
  const client = useClient();
  const toast = useToast();
  const [draft, setDraft] = useState<PointsSettings>(initial);
  const [errors, setErrors] = useState<FieldErrors>({});
  const save = async (event: Event) => {
    event.preventDefault();
    try {
      const saved = await client.points.saveSettings(draft);
      setDraft(saved);
      setErrors({});
      onSaved(saved);
      toast("success", "Saved the points settings.");
    } catch (error) {
      setErrors(formErrorsOf(error));
    }
  };
  return (
    <form class="card stack" aria-labelledby="points-settings-heading" onSubmit={(event) => void save(event)}>
      <h2 id="points-settings-heading">Settings</h2>
      <CheckboxField label="Viewers earn points and can use !points" name="enabled" checked={draft.enabled} onChange={(enabled) => setDraft({ ...draft, enabled })} errors={errors} />
      <TextField label="Currency name" name="currency" value={draft.currency} onChange={(currency) => setDraft({ ...draft, currency })} errors={errors} required maxLength={32} />
      <div class="form-grid">
        {NUMBER_SETTINGS.map((field) => (
          <NumberField
            key={field.name}
            label={field.label}
            name={field.name}
            hint={field.hint}
            value={draft[field.name]}
            onChange={(value) => setDraft({ ...draft, [field.name]: value ?? 0 })}
            errors={errors}
            min={0}
            max={field.max}
            step={1}
          />
        ))}
      </div>
      <FormErrors errors={errors} shown={["enabled", "currency", ...NUMBER_SETTINGS.map((f) => f.name)]} />
      <div class="actions">
        <button type="submit" class="button primary">
          Save settings
        </button>
      </div>
    </form>
  );
}

function Adjust({ viewer, setViewer, currency, onDone }: { viewer: string; setViewer: (viewer: string) => void; currency: string; onDone: () => void }) {
  const client = useClient();
  const toast = useToast();
  const [amount, setAmount] = useState<number | null>(10);
  const [errors, setErrors] = useState<FieldErrors>({});
  const adjust = async (event: Event) => {
    event.preventDefault();
    try {
      const after = await client.points.adjust(viewer, amount ?? 0);
      setErrors({});
      toast("success", `${after.name ?? viewer} now has ${after.points} ${currency}.`);
      onDone();
    } catch (error) {
      setErrors(formErrorsOf(error));
    }
  };
  return (
    <form class="card stack" aria-labelledby="points-adjust-heading" onSubmit={(event) => void adjust(event)}>
      <h2 id="points-adjust-heading">Give or take {currency}</h2>
      <div class="form-grid">
        <TextField label="Viewer" name="viewer" value={viewer} onChange={setViewer} errors={errors} required hint="A wallet from the leaderboard: twitch:1234, account:7…" input={{ autocomplete: "off" }} />
        <NumberField label="Amount (negative takes)" name="amount" value={amount} onChange={setAmount} errors={errors} step={1} />
      </div>
      <FormErrors errors={errors} shown={["viewer", "amount"]} />
      <div class="actions">
        <button type="submit" class="button primary">
          Apply
        </button>
      </div>
    </form>
  );
}

function Csv({ onImported }: { onImported: () => void }) {
  const client = useClient();
  const toast = useToast();
  const [mode, setMode] = useState("set");
  const [file, setFile] = useState<File | null>(null);
  const [lines, setLines] = useState<FieldErrors>({});
  const download = async () => {
    try {
      const { csv } = await client.points.export();
      const link = document.createElement("a");
      link.href = URL.createObjectURL(new Blob([csv], { type: "text/csv" }));
      link.download = "points.csv";
      link.click();
      URL.revokeObjectURL(link.href);
    } catch (error) {
      toast("error", messageOf(error));
    }
  };
  const upload = async (event: Event) => {
    event.preventDefault();
    if (file === null) return;
    try {
      const done = await client.points.import(await file.text(), mode === "add" ? "add" : "set");
      setLines({});
      toast("success", `Imported ${done.imported} balance${done.imported === 1 ? "" : "s"}.`);
      onImported();
    } catch (error) {
      const errors = fieldErrorsOf(error);
      setLines(Object.keys(errors).length > 0 ? errors : { file: [messageOf(error)] });
    }
  };
  const refused = Object.entries(lines);
  return (
    <form class="card stack" aria-labelledby="points-csv-heading" onSubmit={(event) => void upload(event)}>
      <h2 id="points-csv-heading">CSV</h2>
      <p class="muted">Columns viewer, name, platform, points. A file with a wrong line changes nothing.</p>
      <div class="actions">
        <button type="button" class="button secondary" onClick={() => void download()}>
          Download CSV
        </button>
      </div>
      <div class="form-grid">
        <div class="field">
          <label for="points-csv-file">CSV file</label>
          <input id="points-csv-file" name="file" type="file" accept=".csv,text/csv" onChange={(event) => setFile(event.currentTarget.files?.[0] ?? null)} />
        </div>
        <SelectField
          label="Mode"
          name="mode"
          value={mode}
          onChange={setMode}
          options={[
            { value: "set", label: "Set each balance" },
            { value: "add", label: "Add to each balance" },
          ]}
        />
      </div>
      {refused.length > 0 ? (
        <div class="form-errors" role="alert" data-csv-errors>
          <p>Nothing was imported:</p>
          <ul>
            {refused.map(([line, messages]) => (
              <li key={line}>
                {line}: {messages.join(" ")}
              </li>
            ))}
          </ul>
        </div>
      ) : null}
      <div class="actions">
        <button type="submit" class="button primary" disabled={file === null}>
          Import CSV
        </button>
      </div>
    </form>
  );
}

function describe(entry: PointsHistoryEntry, currency: string): string {
  const amount = `${entry.delta >= 0 ? "+" : ""}${entry.delta} ${currency}`;
  const who = entry.viewer === null ? `${entry.viewers} viewer${entry.viewers === 1 ? "" : "s"}` : (entry.name ?? entry.viewer);
  return `${entry.reason}: ${amount} · ${who}${entry.by === null ? "" : ` · by ${entry.by}`}`;
}

/** Loyalty points: the leaderboard with a search, changes, the settings, and CSV import/export. */
export default function Points() {
  const client = useClient();
  const settings = useLoad(() => client.points.settings(), [client]);
  const board = useLoad(() => client.points.leaderboard({ limit: BOARD_SIZE }), [client]);
  const history = useLoad(async () => (await client.points.history({ limit: 30 })).data, [client]);
  const [search, setSearch] = useState("");
  const [viewer, setViewer] = useState("");
  const currency = settings.data?.currency ?? "points";
  const reload = () => {
    void board.reload();
    void history.reload();
  };
  const wanted = search.trim().toLowerCase();
  return (
    <div class="stack">
      <div class="toolbar">
        <p class="lead">Viewers earn {currency} for watching, chatting and supporting you, and spend them on commands with a price.</p>
        <span class="spacer" />
        <button type="button" class="button secondary small" onClick={reload}>
          Refresh
        </button>
      </div>
      <section class="card stack" aria-labelledby="points-board-heading">
        <h2 id="points-board-heading">Leaderboard</h2>
        <TextField label="Search viewers" name="search" type="search" value={search} onChange={setSearch} input={{ autocomplete: "off" }} />
        <LoadState loaded={board} what="Leaderboard">
          {({ data, total }) => {
            const rows = data.filter((row) => wanted === "" || (row.name ?? "").toLowerCase().includes(wanted) || row.viewer.toLowerCase().includes(wanted));
            return rows.length === 0 ? (
              <p class="muted">{total === 0 ? `Nobody has ${currency} yet.` : "No viewer matches the search."}</p>
            ) : (
              <div class="table-wrap">
                <table class="data data-table" aria-describedby="points-board-heading">
                  <TableHead columns={["#", "Viewer", "Wallet", currency]} />
                  <tbody>
                    {rows.map((row) => (
                      <tr key={row.viewer} data-viewer={row.viewer}>
                        <td data-label="#">{row.rank}</td>
                        <th scope="row">{row.name ?? row.viewer}</th>
                        <td data-label="Wallet">
                          <code>{row.viewer}</code>
                        </td>
                        <td data-label={currency} class="points-balance">
                          {row.points}
                        </td>
                        <td class="row-actions">
                          <button type="button" class="button secondary small" aria-label={`Adjust ${row.name ?? row.viewer}`} onClick={() => setViewer(row.viewer)}>
                            Adjust
                          </button>
                        </td>
                      </tr>
                    ))}
                  </tbody>
                </table>
                {total > data.length ? <p class="muted">The first {data.length} of {total} viewers.</p> : null}
              </div>
            );
          }}
        </LoadState>
      </section>
      <Adjust viewer={viewer} setViewer={setViewer} currency={currency} onDone={reload} />
      <section class="card stack" aria-labelledby="points-history-heading">
        <h2 id="points-history-heading">Latest changes</h2>
        <LoadState loaded={history} what="History">
          {(entries) =>
            entries.length === 0 ? (
              <p class="muted">No changes yet.</p>
            ) : (
              <ul class="plain-list" aria-label="Latest changes">
                {entries.map((entry, index) => (
                  <li key={`${entry.at}-${index}`}>
                    <time dateTime={entry.at}>{new Date(entry.at).toLocaleString()}</time> {describe(entry, currency)}
                  </li>
                ))}
              </ul>
            )
          }
        </LoadState>
      </section>
      <LoadState loaded={settings} what="Settings">
        {(loaded) => <Settings initial={loaded} onSaved={(saved) => settings.set(() => saved)} />}
      </LoadState>
      <Csv onImported={reload} />
    </div>
  );
}
