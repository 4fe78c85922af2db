import { useId, useRef, useState } from "preact/hooks";
import { messageOf } from "../../ui/errors.js";
import type { FieldErrors } from "../../ui/errors.js";
import { TextField } from "../../ui/field.js";
import { useToast } from "../../ui/toast.js";
import { useClient } from "../kit/client.js";
import { uploadMedia } from "./upload.js";

/** An image or sound: an http(s) URL typed in, or a file uploaded to the host (`POST /v1/media`), with a preview. */
export function MediaField({ kind, label, name, value, errors, onChange }: { kind: "image" | "sound"; label: string; name: string; value: string | null; errors: FieldErrors; onChange: (value: string | null) => void }) {
  const api = useClient();
  const toast = useToast();
  const fileId = useId();
  const input = useRef<HTMLInputElement>(null);
  const [busy, setBusy] = useState(false);
  const upload = async (file: File) => {
    setBusy(true);
    try {
      const url = await uploadMedia(api, file);
      onChange(url);
      toast("success", `${file.name} uploaded.`);
    } catch (error) {
      toast("error", `Upload failed: ${messageOf(error)}`);
    } finally {
      setBusy(false);
      if (input.current) input.current.value = "";
    }
  };
  return (
    <div class="media-field">
      <TextField label={`${label} URL`} name={name} type="url" value={value ?? ""} placeholder="https://…" errors={errors} input={{ spellcheck: false }} onChange={(v) => onChange(v === "" ? null : v)} />
      <div class="media-row">
        <label class="button secondary small" for={fileId} aria-disabled={busy}>
          {busy ? "Uploading…" : `Upload ${kind === "image" ? "an image" : "a sound"}`}
        </label>
        <input
          ref={input}
          id={fileId}
          class="visually-hidden"
          type="file"
          accept={kind === "image" ? "image/png,image/jpeg,image/gif,image/webp" : "audio/mpeg,audio/ogg,audio/wav,audio/webm"}
          disabled={busy}
          onChange={(event) => {
            const file = event.currentTarget.files?.[0];
            if (file) void upload(file);
          }}
        />
        {value && kind === "image" ? <img class="media-thumb" src={value} alt={`${label} preview`} width={48} height={48} /> : null}
        {value && kind === "sound" ? <audio class="media-audio" src={value} controls preload="none" aria-label={`${label} preview`} /> : null}
      </div>
    </div>
  );
}
