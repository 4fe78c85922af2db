import { createContext } from "preact";
import type { ComponentChildren } from "preact";
import { useCallback, useContext, useMemo, useRef, useState } from "preact/hooks";

/** One short message: `success` and `info` go away by themselves, `error` stays until dismissed. */
export interface Toast {
  id: number;
  kind: "success" | "info" | "error";
  message: string;
}

type ShowToast = (kind: Toast["kind"], message: string) => void;

const ToastContext = createContext<ShowToast>(() => undefined);

/** Shows a toast: `useToast()("success", "Saved")`. */
export function useToast(): ShowToast {
  return useContext(ToastContext);
}

/** Holds the toasts and renders them in a live region (announced by screen readers). */
export function ToastProvider({ children }: { children: ComponentChildren }) {
  const [toasts, setToasts] = useState<Toast[]>([]);
  const next = useRef(1);
  const dismiss = useCallback((id: number) => setToasts((all) => all.filter((t) => t.id !== id)), []);
  const show = useCallback<ShowToast>(
    (kind, message) => {
      const id = next.current++;
      setToasts((all) => [...all.slice(-4), { id, kind, message }]);
      if (kind !== "error") setTimeout(() => dismiss(id), 5000);
    },
    [dismiss],
  );
  const value = useMemo(() => show, [show]);
  return (
    <ToastContext.Provider value={value}>
      {children}
      <div class="toasts" role="status" aria-live="polite">
        {toasts.map((t) => (
          <div key={t.id} class={`toast toast-${t.kind}`} data-kind={t.kind}>
            <span>{t.message}</span>
            <button type="button" class="icon-button" aria-label="Dismiss" onClick={() => dismiss(t.id)}>
              ×
            </button>
          </div>
        ))}
      </div>
    </ToastContext.Provider>
  );
}
