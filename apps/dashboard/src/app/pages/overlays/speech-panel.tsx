import type { HeldSpeech } from "@ovation/client";
import { useState } from "preact/hooks";
import { messageOf } from "../../ui/errors.js";
import { useToast } from "../../ui/toast.js";
import { useClient } from "../kit/client.js";
import { useLoad } from "../kit/use-load.js";

/**
 * Read-aloud controls: hear a text with a voice (`POST /v1/tts/preview`), the approval queue of held
 * messages (approve, skip), and "Skip speech" beside the queue's "Skip alert".
 */
export function SpeechPanel() {
  const client = useClient();
  const toast = useToast();
  const [text, setText] = useState("Thanks for the tip, have a great stream!");
  const [voice, setVoice] = useState("");
  const voices = useLoad(async () => (await client.tts.voices()).data, [client]);
  const held = useLoad(async () => (await client.tts.queue()).data, [client]);

  const act = async (run: () => Promise<unknown>, done: string) => {
    try {
      await run();
      toast("success", done);
      await held.reload();
    } catch (error) {
      toast("error", messageOf(error));
    }
  };
  const preview = () =>
    act(async () => {
      const wav = await client.tts.preview({ text, ...(voice === "" ? {} : { voice }) });
      const url = URL.createObjectURL(new Blob([new Uint8Array(wav)], { type: "audio/wav" }));
      const audio = new Audio(url);
      audio.addEventListener("ended", () => URL.revokeObjectURL(url), { once: true });
      await audio.play();
    }, "Playing the preview.");

  return (
    <section class="card stack" aria-labelledby="speech-heading">
      <h2 id="speech-heading">Read-aloud alerts</h2>
      <div class="form-grid">
        <label class="field span-all">
          <span>Text to hear</span>
          <input type="text" value={text} maxLength={500} onInput={(e) => setText((e.currentTarget as HTMLInputElement).value)} />
        </label>
        <label class="field">
          <span>Voice</span>
          <select value={voice} onChange={(e) => setVoice((e.currentTarget as HTMLSelectElement).value)}>
            <option value="">Default</option>
            {(voices.data ?? []).map((v) => (
              <option key={v} value={v}>
                {v}
              </option>
            ))}
          </select>
        </label>
      </div>
      <div class="toolbar">
        <button type="button" class="button primary small" onClick={() => void preview()}>
          Hear it
        </button>
        <span class="spacer" />
        <button type="button" class="button secondary small" onClick={() => void act(() => client.alerts.skip(), "Skipped the alert on screen.")}>
          Skip alert
        </button>
        <button type="button" class="button secondary small" data-action="skip-speech" onClick={() => void act(() => client.tts.skip(), "Skipped the speech.")}>
          Skip speech
        </button>
      </div>
      <h3>Held for approval</h3>
      {(held.data ?? []).length === 0 ? (
        <p class="muted">Nothing waits. Turn on “Approval” in an alerts source's read-aloud options to hold every message here first.</p>
      ) : (
        <ul class="held-list" aria-label="Messages held for approval">
          {(held.data ?? []).map((item: HeldSpeech) => (
            <li key={item.notification_id} class="held-item" data-notification-id={item.notification_id}>
              <strong>{item.name}</strong> <span class="muted">({item.type})</span>
              <p>{item.text}</p>
              <div class="toolbar">
                <button type="button" class="button primary small" onClick={() => void act(() => client.tts.approve(item.notification_id), "Approved: it is read now.")}>
                  Approve
                </button>
                <button type="button" class="button secondary small" onClick={() => void act(() => client.tts.skipHeld(item.notification_id), "Skipped.")}>
                  Skip
                </button>
              </div>
            </li>
          ))}
        </ul>
      )}
      <div class="toolbar">
        <button type="button" class="button secondary small" onClick={() => void held.reload()}>
          Refresh
        </button>
      </div>
    </section>
  );
}
