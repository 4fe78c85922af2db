import { useLocation } from "wouter-preact";
import { useClient } from "../kit/client.js";
import { LoadState } from "../kit/load-state.js";
import { useLoad } from "../kit/use-load.js";
import type { PageProps } from "../kit/page.js";
import { CommandForm } from "./command-form.js";

/** Create (`/commands/new`) or edit a command, with its dry run. */
export default function CommandEditor({ params }: PageProps) {
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
