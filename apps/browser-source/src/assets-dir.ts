import { fileURLToPath } from "node:url";

/**
 * Absolute path of the built browser assets (`app.js`, `app.css`, `fonts/*.woff2`). The server serves
 * this directory as static files at `{api_base}/browser-source/assets/`. The path is the same whether
 * this module runs from `src/` (tests) or from `dist/` (built): `<package>/dist/assets`.
 */
export const assetsDir: string = fileURLToPath(new URL("../dist/assets/", import.meta.url));
