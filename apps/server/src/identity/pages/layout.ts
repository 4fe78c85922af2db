import { escapeHtml } from "./html.js";

/** The stylesheet of every identity page: no external assets, readable contrast, visible focus. */
export const PAGE_CSS = `
*{box-sizing:border-box}
body{margin:0;font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;background:#f4f4f7;color:#1d1d27}
main{max-width:26rem;margin:3rem auto;padding:2rem;background:#fff;border-radius:.75rem;box-shadow:0 1px 4px rgba(0,0,0,.12)}
h1{font-size:1.5rem;margin:0 0 1rem}
label{display:block;font-weight:600;margin:.75rem 0 .25rem}
input[type=email],input[type=password],input[type=text]{width:100%;padding:.6rem .7rem;font:inherit;border:1px solid #767685;border-radius:.4rem}
button,.button{display:inline-block;width:100%;margin-top:1rem;padding:.65rem 1rem;font:inherit;font-weight:600;border:0;border-radius:.4rem;background:#4b2bd1;color:#fff;cursor:pointer;text-align:center;text-decoration:none}
button.secondary,.button.secondary{background:#e7e5f3;color:#1d1d27}
button:focus-visible,input:focus-visible,a:focus-visible{outline:3px solid #f5a300;outline-offset:2px}
.error{color:#a4002b;font-weight:600}
.platforms{margin-top:1.5rem;border-top:1px solid #ddd;padding-top:1rem}
ul.scopes{padding-left:1.2rem}
.muted{color:#55556a;font-size:.9rem}
code{word-break:break-all}
`;

/** A complete HTML page. `body` is trusted HTML; `title` is escaped. */
export function renderPage(page: { title: string; body: string }): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>${escapeHtml(page.title)} · Ovation</title>
<style>${PAGE_CSS}</style>
</head>
<body>
<main>
${page.body}
</main>
</body>
</html>`;
}

/**
 * Headers of every identity page: no framing (clickjacking of the consent page), nothing loaded
 * from elsewhere (scripts only from this host: the security-key step), no referrer. `form-action` is left out: browsers apply it to the redirect back to
 * the app after a form post.
 */
export const PAGE_SECURITY_HEADERS: Readonly<Record<string, string>> = Object.freeze({
  "content-security-policy": "default-src 'none'; script-src 'self'; style-src 'unsafe-inline'; img-src 'self' data:; frame-ancestors 'none'; base-uri 'none'",
  "x-frame-options": "DENY",
  "referrer-policy": "no-referrer",
  "x-content-type-options": "nosniff",
});
