import { fileURLToPath } from "node:url";

/**
 * Absolute path of the built dashboard assets (`app.js`, `app.css`), served at `<base>/dashboard/assets/`.
 * The same whether this module runs from `src/` (tests) or `dist/` (built): `<package>/dist/assets`.
 */
export const dashboardAssetsDir: string = fileURLToPath(new URL("../dist/assets/", import.meta.url));
