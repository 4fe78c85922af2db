import type { Manager, ManagerAuditEntry, ManagerRole } from "@ovation/client/http";
import { useState } from "preact/hooks";
import { useChannel } from "../../channel.js";
import type { FieldErrors } from "../../ui/errors.js";
import { messageOf } from "../../ui/errors.js";
import { FormErrors, SelectField, TextField } from "../../ui/field.js";
import { useConfirm } from "../../ui/confirm.js";
import { useToast } from "../../ui/toast.js";
import { useClient } from "../kit/client.js";
import { formErrorsOf } from "../kit/form-errors.js";
import { LoadState } from "../kit/load-state.js";
import { TableHead } from "../kit/table-head.js";
import { useLoad } from "../kit/use-load.js";

const ROLES: readonly { value: ManagerRole; label: string }[] = [
  { value: "editor", label: "Editor: commands" },
  { value: "moderator", label: "Moderator: timers, giveaways, moderation and counters" },
];

function when(at: string): string {
  return new Date(at).toLocaleString();
}

function GrantForm({ onGranted }: { onGranted: (manager: Manager) => void }) {
  const client = useClient();
  const toast = useToast();
  const [user, setUser] = useState("");
  const [role, setRole] = useState<string>("editor");
  const [errors, setErrors] = useState<FieldErrors>({});
  const grant = async (event: Event) => {
    event.preventDefault();
    try {
      const manager = await client.managers.grant({ user: user.trim(), role: role as ManagerRole });
      onGranted(manager);
      setUser("");
      setErrors({});
      toast("success", `${manager.name} is now ${manager.role === "editor" ? "an editor" : "a moderator"} of your channel.`);
    } catch (error) {
      setErrors(formErrorsOf(error));
    }
  };
  return (
    <form class="card stack" aria-labelledby="grant-heading" onSubmit={(event) => void grant(event)}>
      <h2 id="grant-heading">Add a manager</h2>
      <div class="form-grid">
        <TextField label="Account name" name="user" value={user} onChange={setUser} errors={errors} required maxLength={100} input={{ autocomplete: "off" }} hint="The name of their Ovation account." />
        <SelectField label="Role" name="role" value={role} onChange={setRole} errors={errors} options={ROLES} />
      </div>
      <FormErrors errors={errors} shown={["user", "role"]} />
      <div class="actions">
        <button type="submit" class="button primary">
          Add manager
        </button>
      </div>
    </form>
  );
}

function AuditLog({ generation }: { generation: number }) {
  const client = useClient();
  const loaded = useLoad(async () => (await client.managers.audit({ limit: 100 })).data, [generation]);
  return (
    <section class="stack" aria-labelledby="audit-heading">
      <h2 id="audit-heading">Who changed what</h2>
      <LoadState loaded={loaded} what="The audit log">
        {(entries: ManagerAuditEntry[]) =>
          entries.length === 0 ? (
            <p class="card muted">Nothing yet. Every change a manager makes (or tries) on your channel is listed here, with yours to the managers.</p>
          ) : (
            <div class="table-wrap">
              <table class="data data-table" aria-describedby="audit-heading" data-testid="audit-log">
                <TableHead columns={["When", "Who", "What", "Where", "Result"]} />
                <tbody>
                  {entries.map((entry) => (
                    <tr key={entry.id} data-action={entry.action}>
                      <td>{when(entry.at)}</td>
                      <td>
                        {entry.actor_name}
                        <span class="cell-sub"> {entry.role}</span>
                      </td>
                      <td>
                        <code>{entry.action}</code>
                      </td>
                      <td class="cell-sub">{entry.target}</td>
                      <td>{entry.status >= 400 ? <span class="badge bad">Refused ({entry.status})</span> : <span class="badge active">Done</span>}</td>
                      <td />
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )
        }
      </LoadState>
    </section>
  );
}

function ManagedChannels() {
  const { channels, channel, select } = useChannel();
  if (channels.length === 0) return null;
  return (
    <section class="stack" aria-labelledby="managed-heading">
      <h2 id="managed-heading">Channels you manage</h2>
      <ul class="plugin-list" aria-label="Channels you manage">
        {channels.map((c) => (
          <li key={c.user_id} class="card source-head" data-channel={c.name}>
            <span>
              <strong>{c.name}</strong> <span class="badge">{c.role}</span>
            </span>
            <button type="button" class="button secondary small" disabled={channel?.user_id === c.user_id} onClick={() => select(c.user_id)}>
              {channel?.user_id === c.user_id ? "Managing now" : `Manage ${c.name}'s channel`}
            </button>
          </li>
        ))}
      </ul>
    </section>
  );
}

/** Managers: grant and revoke roles on your channel, read the audit log, switch to a channel you manage. */
export default function Managers() {
  const client = useClient();
  const toast = useToast();
  const confirm = useConfirm();
  const [generation, setGeneration] = useState(0);
  const loaded = useLoad(async () => (await client.managers.list()).data, []);
  const changed = () => setGeneration((g) => g + 1);
  const setRole = async (manager: Manager, role: ManagerRole) => {
    try {
      const updated = await client.managers.grant({ user: manager.user_id, role });
      loaded.set((list) => (list ?? []).map((m) => (m.user_id === updated.user_id ? updated : m)));
      changed();
    } catch (error) {
      toast("error", messageOf(error));
    }
  };
  const revoke = async (manager: Manager) => {
    if (!(await confirm({ title: `Remove ${manager.name}?`, message: "They lose access to your channel at once.", confirmLabel: "Remove", danger: true }))) return;
    try {
      await client.managers.revoke(manager.user_id);
      loaded.set((list) => (list ?? []).filter((m) => m.user_id !== manager.user_id));
      changed();
    } catch (error) {
      toast("error", messageOf(error));
    }
  };
  return (
    <div class="stack">
      <p class="lead">
        Let other Ovation accounts help run your channel. An <strong>editor</strong> manages your commands; a <strong>moderator</strong> runs timers, giveaways, auto-moderation and counters. Neither ever reaches your security, tokens, connections, account or the bot's signing secret, and every change they make is listed below.
      </p>
      <LoadState loaded={loaded} what="Managers">
        {(managers) =>
          managers.length === 0 ? (
            <p class="card muted">Nobody manages your channel yet.</p>
          ) : (
            <div class="table-wrap">
              <table class="data data-table" data-testid="managers">
                <caption class="visually-hidden">Managers of your channel</caption>
                <TableHead columns={["Account", "Role", "Since"]} />
                <tbody>
                  {managers.map((manager) => (
                    <tr key={manager.user_id} data-manager={manager.name}>
                      <td>{manager.name}</td>
                      <td>
                        <select aria-label={`Role of ${manager.name}`} value={manager.role} onChange={(event) => void setRole(manager, event.currentTarget.value as ManagerRole)}>
                          {ROLES.map((r) => (
                            <option key={r.value} value={r.value}>
                              {r.value}
                            </option>
                          ))}
                        </select>
                      </td>
                      <td>{when(manager.granted_at)}</td>
                      <td>
                        <button type="button" class="button secondary small" aria-label={`Remove ${manager.name}`} onClick={() => void revoke(manager)}>
                          Remove
                        </button>
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )
        }
      </LoadState>
      <GrantForm
        onGranted={(manager) => {
          loaded.set((list) => [...(list ?? []).filter((m) => m.user_id !== manager.user_id), manager]);
          changed();
        }}
      />
      <ManagedChannels />
      <AuditLog generation={generation} />
    </div>
  );
}
