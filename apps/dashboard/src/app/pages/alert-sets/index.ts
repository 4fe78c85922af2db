import { definePage } from "../page.js";
import { AlertSetEditorPage } from "./editor.js";
import { AlertSetsPage } from "./list.js";

/** `/alert-sets`: the list. */
export const alertSetsPage = definePage({
  id: "alert-sets",
  path: "/alert-sets",
  title: "Alert sets",
  nav: { label: "Alert sets", order: 10, group: "Alerts" },
  managedScope: "alerts:manage",
  component: AlertSetsPage,
});

/** `/alert-sets/:id`: the editor (not in the navigation; the list links to it). */
export const alertSetEditorPage = definePage({
  id: "alert-set-editor",
  path: "/alert-sets/:id",
  title: "Edit alert set",
  managedScope: "alerts:manage",
  component: AlertSetEditorPage,
});
