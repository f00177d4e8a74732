// The page for a link whose address has a broken percent-escape. proxy.ts answers it before
// Next.js renders anything (Next.js would fail decoding the route and answer a bare 500), so it
// cannot use the app's stylesheet or React: it copies the app's look (the header, the colours of
// Tailwind's slate and indigo, the system font stack) in a <style> of its own, which the plain
// page CSP (style-src 'unsafe-inline', no scripts) allows.

export const BROKEN_LINK_MESSAGE =
  "This link is broken: its address has a malformed percent-escape (%). Copy the link again from the page it came from.";

const STYLE = `
*,*::before,*::after{box-sizing:border-box}
html{color-scheme:light}
body{margin:0;min-height:100vh;background:#f8fafc;color:#0f172a;-webkit-font-smoothing:antialiased;
  font-family:ui-sans-serif,system-ui,-apple-system,"Segoe UI",Roboto,"Helvetica Neue",Arial,sans-serif;line-height:1.5}
a{color:inherit;text-decoration:none}
.skip{position:absolute;left:-9999px}
.skip:focus{left:.5rem;top:.5rem;z-index:50;background:#4338ca;color:#fff;border-radius:.375rem;padding:.5rem .75rem;font-size:.875rem}
header{border-bottom:1px solid #e2e8f0;background:#fff}
.bar{max-width:96rem;margin:0 auto;display:flex;flex-wrap:wrap;align-items:center;gap:.5rem 1.5rem;padding:.75rem 1rem}
.brand{display:flex;align-items:center;gap:.5rem;font-weight:600;letter-spacing:-.025em}
.logo{display:inline-block;width:1.25rem;height:1.25rem;border-radius:.25rem;background:linear-gradient(to bottom right,#6366f1,#10b981)}
nav{display:flex;flex-wrap:wrap;gap:.25rem 1rem;font-size:.875rem;color:#475569}
nav a:hover,nav a:focus-visible{color:#0f172a}
main{max-width:36rem;margin:0 auto;padding:4rem 1rem}
.card{border:1px solid #e2e8f0;border-radius:.5rem;background:#fff;padding:1.5rem;box-shadow:0 1px 2px rgb(0 0 0 / .05)}
.status{display:inline-block;border-radius:.25rem;background:#fee2e2;color:#991b1b;font-size:.75rem;font-weight:500;padding:0 .375rem}
h1{font-size:1.5rem;font-weight:600;letter-spacing:-.025em;margin:.5rem 0 0}
p{color:#475569;margin:.5rem 0 0}
code{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,"Liberation Mono",monospace;font-size:.8125rem;background:#f1f5f9;border-radius:.25rem;padding:.125rem .25rem;overflow-wrap:anywhere}
.back{display:inline-block;margin-top:1.25rem;color:#4338ca;font-weight:500}
.back:hover,.back:focus-visible{text-decoration:underline}
@media (min-width:640px){.bar{padding:.75rem 1.5rem}}
`;

const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c] ?? c);

/** The whole HTML page; `path` (as requested, still percent-encoded) is shown, escaped. */
export function brokenLinkPage(path: string): string {
  return `<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Broken link · Routeboard</title><style>${STYLE}</style></head>
<body><a class="skip" href="#main">Skip to content</a>
<header><div class="bar"><a class="brand" href="/"><span class="logo" aria-hidden="true"></span>Routeboard</a>
<nav aria-label="Main"><a href="/">Models</a><a href="/spend">Spend</a><a href="/alerts">Alerts</a><a href="/notifications">Notifications</a></nav></div></header>
<main id="main"><div class="card"><span class="status">400</span><h1>Broken link</h1>
<p>${escapeHtml(BROKEN_LINK_MESSAGE)}</p>
<p>The address asked for: <code>${escapeHtml(path.slice(0, 300))}</code></p>
<a class="back" href="/">Back to the watched models</a></div></main></body></html>`;
}
