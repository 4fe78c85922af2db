import type { BotCommandView } from "@ovation/client";
import { Link } from "wouter-preact";
import { messageOf } from "../../ui/errors.js";
import { useConfirm } from "../../ui/confirm.js";
import { useToast } from "../../ui/toast.js";
import { PERMISSION_OPTIONS } from "./command-form.js";
import { DryRunPanel } from "./dry-run-panel.js";
import { useClient } from "../kit/client.js";
import { LoadState } from "../kit/load-state.js";
import { useLoad } from "../kit/use-load.js";
import { TableHead } from "../kit/table-head.js";

const permissionLabel = (level: number) => PERMISSION_OPTIONS.find((o) => o.value === String(level))?.label ?? String(level);

function cooldownText(command: BotCommandView): string {
  const parts = [command.global_cooldown > 0 ? `${command.global_cooldown} s for all` : null, command.user_cooldown > 0 ? `${command.user_cooldown} s per viewer` : null].filter((p) => p !== null);
  return parts.length > 0 ? parts.join(", ") : "none";
}

/** The commands page: list, delete, and a dry run of the saved commands. */
export default function CommandList() {
  const client = useClient();
  const confirm = useConfirm();
  const toast = useToast();
  const loaded = useLoad(async () => (await client.commands.list()).data, []);

  const remove = async (command: BotCommandView) => {
    const ok = await confirm({ title: `Delete !${command.command}?`, message: "Viewers can no longer use it. This cannot be undone.", confirmLabel: "Delete", danger: true });
    if (!ok) return;
    try {
      await client.commands.delete(command.id);
      loaded.set((list) => (list ?? []).filter((c) => c.id !== command.id));
      toast("success", `Deleted !${command.command}.`);
    } catch (error) {
      toast("error", messageOf(error));
    }
  };

  return (
    <div class="stack">
      <div class="toolbar">
        <p class="lead">Chat commands your bot answers. A response can be plain text or a template.</p>
        <span class="spacer" />
        <Link href="/commands/new" class="button primary">
          New command
        </Link>
      </div>
      <LoadState loaded={loaded} what="Commands">
        {(commands) =>
          commands.length === 0 ? (
            <p class="card muted">No commands yet. Create one, then try it with a chat message.</p>
          ) : (
            <div class="table-wrap">
              <table class="data data-table">
                <caption class="visually-hidden">Your commands</caption>
                <TableHead columns={["Command", "Who", "Cooldown", "Active"]} />
                <tbody>
                  {commands.map((command) => (
                    <tr key={command.id} data-command={command.command}>
                      <th scope="row">
                        <code>!{command.command}</code>
                        {command.command_aliases.length > 0 ? <span class="muted"> also {command.command_aliases.map((a) => `!${a}`).join(", ")}</span> : null}
                        <span class="cell-sub">{command.response.length > 80 ? `${command.response.slice(0, 80)}…` : command.response}</span>
                      </th>
                      <td data-label="Who">{permissionLabel(command.permissions)}</td>
                      <td data-label="Cooldown">{cooldownText(command)}</td>
                      <td data-label="Active">{command.enable_when === "both" ? "always" : command.enable_when === "online" ? "while live" : "while offline"}</td>
                      <td class="row-actions">
                        <Link href={`/commands/${command.id}`} class="button secondary small" aria-label={`Edit !${command.command}`}>
                          Edit
                        </Link>
                        <button type="button" class="button secondary small" aria-label={`Delete !${command.command}`} onClick={() => void remove(command)}>
                          Delete
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
      <DryRunPanel initialMessage="!" />
    </div>
  );
}
