import type { ComponentChildren } from "preact";
import { useEffect, useId, useRef } from "preact/hooks";

/**
 * A modal dialog on the native `<dialog>` element: focus moves into it and is trapped there, Escape
 * closes it (calls `onClose`), and it is labelled by its title for screen readers.
 */
export function Modal({ title, open, onClose, children, describedBy }: { title: string; open: boolean; onClose: () => void; children: ComponentChildren; describedBy?: string }) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) dialog.showModal();
    if (!open && dialog.open) dialog.close();
  }, [open]);
  return (
    <dialog
      ref={ref}
      class="modal"
      aria-labelledby={titleId}
      aria-describedby={describedBy}
      onCancel={(event) => {
        event.preventDefault();
        onClose();
      }}
    >
      {open ? (
        <div class="modal-body">
          <h2 id={titleId} class="modal-title">
            {title}
          </h2>
          {children}
        </div>
      ) : null}
    </dialog>
  );
}
