import { createContext } from "preact";
import type { ComponentChildren } from "preact";
import { useCallback, useContext, useId, useRef, useState } from "preact/hooks";
import { Modal } from "./modal.js";

/** What a confirmation asks. */
export interface ConfirmOptions {
  title: string;
  message: string;
  /** Label of the confirming button (default "Confirm"). */
  confirmLabel?: string;
  /** Styles the confirming button as destructive. */
  danger?: boolean;
}

type Confirm = (options: ConfirmOptions) => Promise<boolean>;

const ConfirmContext = createContext<Confirm>(async () => false);

/** Asks the user to confirm: `if (await useConfirm()({ title, message })) ...`. */
export function useConfirm(): Confirm {
  return useContext(ConfirmContext);
}

/** Renders the one confirmation dialog of the app. */
export function ConfirmProvider({ children }: { children: ComponentChildren }) {
  const [asked, setAsked] = useState<ConfirmOptions | null>(null);
  const resolver = useRef<((answer: boolean) => void) | null>(null);
  const messageId = useId();
  const confirm = useCallback<Confirm>(
    (options) =>
      new Promise<boolean>((resolve) => {
        resolver.current?.(false);
        resolver.current = resolve;
        setAsked(options);
      }),
    [],
  );
  const answer = (value: boolean) => {
    resolver.current?.(value);
    resolver.current = null;
    setAsked(null);
  };
  return (
    <ConfirmContext.Provider value={confirm}>
      {children}
      <Modal title={asked?.title ?? ""} open={asked !== null} onClose={() => answer(false)} describedBy={messageId}>
        <p id={messageId}>{asked?.message}</p>
        <div class="actions">
          <button type="button" class="button secondary" onClick={() => answer(false)}>
            Cancel
          </button>
          <button type="button" class={`button ${asked?.danger ? "danger" : "primary"}`} onClick={() => answer(true)}>
            {asked?.confirmLabel ?? "Confirm"}
          </button>
        </div>
      </Modal>
    </ConfirmContext.Provider>
  );
}
