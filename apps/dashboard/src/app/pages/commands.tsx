import type { BotCommandView } from "@ovation/client";
import { Link, useLocation } from "wouter-preact";
import { messageOf } from "../ui/errors.js";
import { useConfirm } from "../ui/confirm.js";
import { useToast } from "../ui/toast.js";
import { CommandForm, PERMISSION_OPTIONS } from "./commands/command-form.js";
import { DryRunPanel } from "./commands/dry-run-panel.js";
import { useClient } from "./kit/client.js";
import { LoadState } from "./kit/load-state.js";
import { useLoad } from "./kit/use-load.js";
import { definePage } from "./page.js";
import type { PageProps } from "./page.js";
import { TableHead } from "./kit/table-head.js";

const permissionLabel = (level: number) => PERMISSION_OPTIONS.find((o) => o.value === String(level))?.label ?? String(level);

function cooldownText(command: BotCommandView): string {
  const parts = [command.global_cooldown > 0 ? `${command.global_cooldown} s for all` : null, command.user_cooldown > 0 ? `${command.user_cooldown} s per viewer` : null].filter((p) => p !== null);
  return parts.length > 0 ? parts.join(", ") : "none";
}

function CommandList() {
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

function CommandEditor({ params }: PageProps) {
  const client = useClient();
  const [, navigate] = useLocation();
  const isNew = params["id"] === "new";
  const id = Number(params["id"]);
  const loaded = useLoad(async () => (isNew ? null : await client.commands.get(id)), [params["id"]]);
  const back = () => navigate("/commands");
  if (isNew) {
    return (
      <div class="stack">
        <CommandForm command={null} onSaved={(saved) => navigate(`/commands/${saved.id}`)} onCancel={back} />
      </div>
    );
  }
  return (
    <LoadState loaded={loaded} what="The command">
      {(command) =>
        command === null ? null : (
          <div class="stack">
            <CommandForm key={command.updated_at} command={command} onSaved={(saved) => loaded.set(() => saved)} onCancel={back} />
          </div>
        )
      }
    </LoadState>
  );
}

/** The commands page: list, delete, and a dry run of the saved commands. */
export const commandsPage = definePage({
  id: "commands",
  path: "/commands",
  title: "Commands",
  nav: { label: "Commands", order: 40, group: "Chat bot" },
  managedScope: "chatbot:manage:commands",
  component: CommandList,
});

/** Create (`/commands/new`) or edit a command, with its dry run. */
export const commandEditorPage = definePage({
  id: "command-editor",
  path: "/commands/:id",
  title: (params) => (params["id"] === "new" ? "New command" : "Edit command"),
  managedScope: "chatbot:manage:commands",
  component: CommandEditor,
});
