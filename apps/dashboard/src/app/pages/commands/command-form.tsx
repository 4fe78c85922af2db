import type { BotCommandInput, BotCommandView } from "@ovation/client";
import { useState } from "preact/hooks";
import { fieldErrorsOf, messageOf } from "../../ui/errors.js";
import type { FieldErrors } from "../../ui/errors.js";
import { CheckboxField, FormErrors, NumberField, SelectField, TextField } from "../../ui/field.js";
import { useToast } from "../../ui/toast.js";
import { useClient } from "../kit/client.js";
import { DryRunPanel } from "./dry-run-panel.js";
import { TemplateEditor } from "./template-editor.js";
import type { TemplateProblem } from "./template-editor.js";
import { formErrorsOf } from "../kit/form-errors.js";

/** Permission levels, as `permissions` stores them. */
export const PERMISSION_OPTIONS = [
  { value: "0", label: "Everyone" },
  { value: "1", label: "Subscribers and up" },
  { value: "2", label: "VIPs and up" },
  { value: "3", label: "Moderators and up" },
  { value: "4", label: "The broadcaster only" },
] as const;

const SEND_AS_OPTIONS = [
  { value: "say", label: "A message" },
  { value: "reply", label: "A reply to the caller" },
  { value: "action", label: "An action (/me)" },
  { value: "announce", label: "An announcement" },
];

const ENABLE_WHEN_OPTIONS = [
  { value: "both", label: "Always" },
  { value: "online", label: "Only while live" },
  { value: "offline", label: "Only while offline" },
];

/** The form's values: everything a command has, as the inputs hold it. */
interface Draft {
  command: string;
  aliases: string;
  response: string;
  command_regex: string;
  permissions: string;
  price: number | null;
  send_as: string;
  enable_when: string;
  user_cooldown: number | null;
  global_cooldown: number | null;
  is_visible: boolean;
}

function draftOf(command: BotCommandView | null): Draft {
  return {
    command: command?.command ?? "",
    aliases: command?.command_aliases.join(", ") ?? "",
    response: command?.response ?? "",
    command_regex: command?.command_regex ?? "",
    permissions: String(command?.permissions ?? 0),
    price: command?.price ?? 0,
    send_as: command?.send_as ?? "say",
    enable_when: command?.enable_when ?? "both",
    user_cooldown: command?.user_cooldown ?? 0,
    global_cooldown: command?.global_cooldown ?? 5,
    is_visible: command?.is_visible ?? true,
  };
}

function bodyOf(draft: Draft): BotCommandInput {
  return {
    command: draft.command.trim(),
    command_aliases: draft.aliases
      .split(/[\s,]+/)
      .map((a) => a.trim())
      .filter((a) => a !== ""),
    response: draft.response,
    command_regex: draft.command_regex.trim() === "" ? null : draft.command_regex.trim(),
    permissions: Number(draft.permissions),
    price: draft.price ?? 0,
    send_as: draft.send_as as BotCommandInput["send_as"],
    enable_when: draft.enable_when as BotCommandInput["enable_when"],
    user_cooldown: draft.user_cooldown ?? 0,
    global_cooldown: draft.global_cooldown ?? 0,
    is_visible: draft.is_visible,
  } as BotCommandInput;
}

/** The template position of a 422 (`details: {field, line, column}`), when the server gave one. */
function problemOf(error: unknown, errors: FieldErrors): TemplateProblem | null {
  const details = (error as { body?: { details?: { field?: unknown; line?: unknown; column?: unknown } } }).body?.details;
  if (!details || details.field !== "response" || typeof details.line !== "number") return null;
  const raw = errors["response"]?.[0] ?? messageOf(error);
  const reason = raw.replace(/^The response field is invalid:\s*/, "").replace(/^Template syntax error at line \d+, column \d+:\s*/, "");
  return { line: details.line, column: typeof details.column === "number" ? details.column : 1, message: reason };
}

const SHOWN = ["command", "command_aliases", "response", "command_regex", "permissions", "price", "send_as", "enable_when", "user_cooldown", "global_cooldown", "is_visible"];

/** Create or edit a command (with a dry run of the form as it is); `onSaved` gets the stored command. */
export function CommandForm({ command, onSaved, onCancel }: { command: BotCommandView | null; onSaved: (saved: BotCommandView) => void; onCancel: () => void }) {
  const client = useClient();
  const toast = useToast();
  const [draft, setDraft] = useState<Draft>(() => draftOf(command));
  const [errors, setErrors] = useState<FieldErrors>({});
  const [problem, setProblem] = useState<TemplateProblem | null>(null);
  const [busy, setBusy] = useState(false);
  const set = <K extends keyof Draft>(key: K) => (value: Draft[K]) => setDraft((d) => ({ ...d, [key]: value }));

  const save = async (event: Event) => {
    event.preventDefault();
    setBusy(true);
    try {
      const body = bodyOf(draft);
      const saved = command === null ? await client.commands.create(body) : await client.commands.replace(command.id, body);
      setErrors({});
      setProblem(null);
      toast("success", `Saved !${saved.command}.`);
      onSaved(saved);
    } catch (error) {
      setErrors(formErrorsOf(error));
      setProblem(problemOf(error, fieldErrorsOf(error)));
    } finally {
      setBusy(false);
    }
  };

  const responseErrors = problem === null ? (errors["response"] ?? []) : (errors["response"] ?? []).slice(1);
  return (
    <>
      <form class="stack command-form" onSubmit={(event) => void save(event)} aria-label={command === null ? "New command" : `Edit !${command.command}`}>
        <div class="form-grid">
          <TextField label="Name" name="command" value={draft.command} onChange={set("command")} errors={errors} required maxLength={33} hint="What viewers type after !, one word." input={{ autocomplete: "off", spellcheck: false }} />
          <TextField label="Aliases" name="command_aliases" value={draft.aliases} onChange={set("aliases")} errors={errors} hint="Other names, separated by commas." input={{ autocomplete: "off", spellcheck: false }} />
          <SelectField label="Who may use it" name="permissions" value={draft.permissions} onChange={set("permissions")} options={PERMISSION_OPTIONS} errors={errors} />
          <SelectField label="Answer as" name="send_as" value={draft.send_as} onChange={set("send_as")} options={SEND_AS_OPTIONS} errors={errors} />
          <SelectField label="Active" name="enable_when" value={draft.enable_when} onChange={set("enable_when")} options={ENABLE_WHEN_OPTIONS} errors={errors} />
          <NumberField label="Cooldown per viewer (seconds)" name="user_cooldown" value={draft.user_cooldown} onChange={set("user_cooldown")} min={0} max={86400} errors={errors} />
          <NumberField label="Cooldown for everyone (seconds)" name="global_cooldown" value={draft.global_cooldown} onChange={set("global_cooldown")} min={0} max={86400} errors={errors} />
          <NumberField label="Price (points)" name="price" value={draft.price} onChange={set("price")} min={0} max={1000000} errors={errors} />
          <TextField label="Trigger pattern (RE2, optional)" name="command_regex" value={draft.command_regex} onChange={set("command_regex")} errors={errors} hint="Matches the whole message, for example (?i)^!dice" input={{ autocomplete: "off", spellcheck: false }} />
          <div class="span-all">
            <CheckboxField label="Listed by !help (the command list in chat)" name="is_visible" checked={draft.is_visible} onChange={set("is_visible")} errors={errors} />
          </div>
        </div>
        <TemplateEditor
          label="Response"
          name="response"
          value={draft.response}
          onChange={(value) => {
            set("response")(value);
            if (problem !== null) setProblem(null);
          }}
          problem={problem}
          otherErrors={responseErrors}
          hint="Plain text, or a template: {{ event.user.username }}, {% if args[1] %}…{% endif %}. Up to 2000 characters."
        />
        <FormErrors errors={errors} shown={SHOWN} />
        <div class="actions">
          <button type="button" class="button secondary" onClick={onCancel}>
            Cancel
          </button>
          <button type="submit" class="button primary" disabled={busy}>
            {command === null ? "Create command" : "Save changes"}
          </button>
        </div>
      </form>
      <DryRunPanel initialMessage={`!${draft.command.trim()}`} draft={() => bodyOf(draft)} />
    </>
  );
}
