import { useState } from "preact/hooks";
import { messageOf } from "../../ui/errors.js";
import { useToast } from "../../ui/toast.js";
import { useChannel } from "../../channel.js";
import { useClient } from "./client.js";
import { useCopy } from "./copy.js";

/** The address of the signed-in user's browser source of `type` (made on first ask), to paste into OBS. */
export function SourceAddress({ type, what }: { type: "queue" | "poll"; what: string }) {
  const client = useClient();
  const toast = useToast();
  const copy = useCopy();
  const { channel } = useChannel();
  const [url, setUrl] = useState<string | null>(null);
  // Browser sources belong to their owner: a manager sees no address of someone else's.
  if (channel !== null) return null;
  const show = async () => {
    try {
      setUrl((await client.browserSources.generate({ browser_source_type: type })).browser_source_url);
    } catch (error) {
      toast("error", messageOf(error));
    }
  };
  return (
    <section class="card stack" aria-label={`${what} browser source`}>
      <h2>Browser source</h2>
      <p class="muted">Add it to OBS as a browser source: it shows {what} and follows every change at once.</p>
      {url === null ? (
        <div class="actions">
          <button type="button" class="button secondary" onClick={() => void show()}>
            Show the address
          </button>
        </div>
      ) : (
        <div class="actions">
          <input class="input" readOnly value={url} aria-label={`Address of the ${type} source`} onFocus={(e) => e.currentTarget.select()} />
          <button type="button" class="button secondary" onClick={() => void copy(url, "Address copied.")}>
            Copy
          </button>
        </div>
      )}
    </section>
  );
}
