import { useToast } from "../../ui/toast.js";

/** Copies text to the clipboard and says so in a toast (or says to copy by hand when the browser refuses). */
export function useCopy(): (text: string, done: string) => Promise<void> {
  const toast = useToast();
  return async (text, done) => {
    try {
      await navigator.clipboard.writeText(text);
      toast("success", done);
    } catch {
      toast("error", "The browser did not allow copying; select the text and copy it by hand.");
    }
  };
}
