import type { AlertSet } from "@ovation/client/http";
import { useCallback, useEffect, useState } from "preact/hooks";
import { Link, useLocation } from "wouter-preact";
import { useClient } from "../kit/client.js";
import { fieldErrorsOf, messageOf } from "../../ui/errors.js";
import type { FieldErrors } from "../../ui/errors.js";
import { FormErrors, TextAreaField, TextField } from "../../ui/field.js";
import { Modal } from "../../ui/modal.js";
import { useToast } from "../../ui/toast.js";
import { useCatalog } from "./use-catalog.js";

type Body = Parameters<ReturnType<typeof useClient>["alertSets"]["create"]>[0];

function engineParts(set: Record<string, unknown>): Record<string, unknown> {
  const { id: _id, user_id: _user, active: _active, created_at: _c, updated_at: _u, ...rest } = set;
  return rest;
}

function CreateDialog({ open, onClose, onCreated }: { open: boolean; onClose: () => void; onCreated: (set: AlertSet) => void }) {
  const api = useClient();
  const { catalog } = useCatalog();
  const [name, setName] = useState("My alerts");
  const [errors, setErrors] = useState<FieldErrors>({});
  const create = async (event: Event) => {
    event.preventDefault();
    try {
      // Starts from the default set of this server's catalog: every type on, one catch-all variation per type.
      const { newAlertSetBody } = await import("./default-set.js");
      onCreated(await api.alertSets.create(newAlertSetBody(name, catalog) as Body));
    } catch (error) {
      setErrors(fieldErrorsOf(error));
    }
  };
  return (
    <Modal title="New alert set" open={open} onClose={onClose}>
      <form onSubmit={(e) => void create(e)} class="stack">
        <TextField label="Name" name="name" value={name} required errors={errors} onChange={setName} input={{ autoFocus: true }} />
        <p class="muted">It starts with every alert type turned on and their default texts.</p>
        <FormErrors errors={errors} shown={["name"]} />
        <div class="actions">
          <button type="button" class="button secondary" onClick={onClose}>
            Cancel
          </button>
          <button type="submit" class="button primary" disabled={catalog === null}>
            Create
          </button>
        </div>
      </form>
    </Modal>
  );
}

function ImportDialog({ open, onClose, onImported }: { open: boolean; onClose: () => void; onImported: (set: AlertSet) => void }) {
  const api = useClient();
  const [text, setText] = useState("");
  const [name, setName] = useState("Imported from AE3");
  const [errors, setErrors] = useState<FieldErrors>({});
  const importSet = async (event: Event) => {
    event.preventDefault();
    let doc: unknown;
    try {
      doc = JSON.parse(text);
    } catch (error) {
      setErrors({ document: [`Not valid JSON: ${messageOf(error)}`] });
      return;
    }
    if (doc === null || typeof doc !== "object" || Array.isArray(doc)) {
      setErrors({ document: ["The document must be a JSON object."] });
      return;
    }
    try {
      // Stored as AE3 first, then moved to AE4 by the server's migration (POST /v1/alert-configs/{id}/migrate).
      // Imported sets start inactive, whatever the document says: activating is a separate choice.
      const created = await api.alertSets.create({ ...(doc as Record<string, unknown>), name, version: 3, active: false } as Body);
      onImported(await api.alertSets.migrate(created.id));
    } catch (error) {
      const fields = fieldErrorsOf(error);
      setErrors(Object.keys(fields).length > 0 ? fields : { document: [messageOf(error)] });
    }
  };
  return (
    <Modal title="Import an AE3 alert set" open={open} onClose={onClose}>
      <form onSubmit={(e) => void importSet(e)} class="stack">
        <TextField label="Name" name="name" value={name} required errors={errors} onChange={setName} />
        <TextAreaField label="AE3 document (JSON)" name="document" class="code" rows={8} spellcheck={false} value={text} errors={errors} onChange={setText} hint="Paste the exported AE3 set. It is migrated to AE4 (one-way)." />
        <FormErrors errors={errors} shown={["name", "document"]} />
        <div class="actions">
          <button type="button" class="button secondary" onClick={onClose}>
            Cancel
          </button>
          <button type="submit" class="button primary">
            Import
          </button>
        </div>
      </form>
    </Modal>
  );
}

/** `/alert-sets`: every set, with create, duplicate, activate and AE3 import. */
export default function AlertSetsPage() {
  const api = useClient();
  const toast = useToast();
  const [, navigate] = useLocation();
  const [sets, setSets] = useState<AlertSet[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [dialog, setDialog] = useState<"create" | "import" | null>(null);
  const load = useCallback(() => {
    api.alertSets.list().then(
      (answer) => setSets(answer.data),
      (e: unknown) => setError(messageOf(e)),
    );
  }, [api]);
  useEffect(load, [load]);
  const act = async (what: string, run: () => Promise<unknown>) => {
    try {
      await run();
      toast("success", what);
      load();
    } catch (e) {
      toast("error", messageOf(e));
    }
  };
  return (
    <div class="stack">
      <div class="toolbar">
        <p class="muted">Your browser sources show the active set unless one names another.</p>
        <span class="spacer" />
        <button type="button" class="button secondary" onClick={() => setDialog("import")}>
          Import AE3
        </button>
        <button type="button" class="button primary" onClick={() => setDialog("create")}>
          New alert set
        </button>
      </div>
      {error ? (
        <p class="field-error" role="alert">
          {error}
        </p>
      ) : null}
      {sets === null && !error ? (
        <p class="loading" role="status">
          Loading…
        </p>
      ) : null}
      {sets !== null && sets.length === 0 ? <p class="empty">No alert set yet. Create one to start.</p> : null}
      {sets !== null && sets.length > 0 ? (
        <div class="table-wrap">
          <table class="data responsive">
            <caption class="visually-hidden">Your alert sets</caption>
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Engine</th>
                <th scope="col">Status</th>
                <th scope="col">
                  <span class="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {sets.map((set) => (
                <tr key={set.id} data-set={set.name}>
                  <td>
                    <Link href={`/alert-sets/${set.id}`}>{set.name}</Link>
                  </td>
                  <td>AE{set.version}</td>
                  <td>{set.active ? <span class="badge active">active</span> : <span class="badge">inactive</span>}</td>
                  <td class="row-actions">
                    {set.active ? null : (
                      <button type="button" class="button secondary small" aria-label={`Activate ${set.name}`} onClick={() => void act(`${set.name} is now active.`, () => api.alertSets.activate(set.id))}>
                        Activate
                      </button>
                    )}
                    {set.version === 4 ? (
                      <button
                        type="button"
                        class="button secondary small"
                        aria-label={`Duplicate ${set.name}`}
                        onClick={() => void act(`${set.name} duplicated.`, () => api.alertSets.create({ ...engineParts(set), name: `${set.name} (copy)`.slice(0, 100) } as Body))}
                      >
                        Duplicate
                      </button>
                    ) : null}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
      <CreateDialog
        open={dialog === "create"}
        onClose={() => setDialog(null)}
        onCreated={(set) => {
          setDialog(null);
          toast("success", `${set.name} created.`);
          navigate(`/alert-sets/${set.id}`);
        }}
      />
      <ImportDialog
        open={dialog === "import"}
        onClose={() => setDialog(null)}
        onImported={(set) => {
          setDialog(null);
          toast("success", `${set.name} imported and migrated to AE4.`);
          navigate(`/alert-sets/${set.id}`);
        }}
      />
    </div>
  );
}
