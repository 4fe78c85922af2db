/** The colour theme: follow the system (`prefers-color-scheme`), or a choice kept in this browser. */
export type ThemeChoice = "system" | "light" | "dark";

const THEME_KEY = "ovation.dashboard.theme";

/** The stored choice (system when none or unreadable). */
export function storedTheme(): ThemeChoice {
  try {
    const value = localStorage.getItem(THEME_KEY);
    return value === "light" || value === "dark" ? value : "system";
  } catch {
    return "system";
  }
}

/** Applies a choice to `<html data-theme>` (the stylesheet reads it) and keeps it. */
export function applyTheme(choice: ThemeChoice, doc: Document = document): void {
  if (choice === "system") doc.documentElement.removeAttribute("data-theme");
  else doc.documentElement.setAttribute("data-theme", choice);
  try {
    if (choice === "system") localStorage.removeItem(THEME_KEY);
    else localStorage.setItem(THEME_KEY, choice);
  } catch {
    // Storage may be disabled; the choice then lasts for this page.
  }
}

/** The theme in effect now (resolving `system`). */
export function effectiveTheme(choice: ThemeChoice): "light" | "dark" {
  if (choice !== "system") return choice;
  return window.matchMedia("(prefers-color-scheme: dark)").matches ? "dark" : "light";
}
