/**
 * The dashboard's one style sheet, served as `/dashboard/assets/dashboard.css` (the CSP allows
 * no inline style). Readable on a phone: one column under 40rem, tables scroll sideways in their
 * own focusable region; colours keep a 4.5:1 contrast in light and dark schemes.
 */
export const DASHBOARD_CSS = `:root { color-scheme: light dark; --fg: #1b1f23; --bg: #ffffff; --muted: #57606a;
  --line: #d0d7de; --accent: #0b5cad; --ok: #116329; --warn: #7a4700; --bad: #a40e26; --mark: #ffd8b5; }
@media (prefers-color-scheme: dark) { :root { --fg: #e6edf3; --bg: #0d1117; --muted: #9da7b3;
  --line: #30363d; --accent: #6cb6ff; --ok: #56d364; --warn: #e3b341; --bad: #ff7b72; --mark: #5a3000; } }
* { box-sizing: border-box; }
body { margin: 0; font: 16px/1.5 system-ui, sans-serif; color: var(--fg); background: var(--bg); }
a { color: var(--accent); }
.skip { position: absolute; left: -999px; top: 0; }
.skip:focus { left: 0.5rem; background: var(--bg); padding: 0.5rem; z-index: 2; }
.banner { display: flex; flex-wrap: wrap; gap: 0.5rem 1.5rem; align-items: center;
  padding: 0.75rem 1rem; border-bottom: 1px solid var(--line); }
.banner p { margin: 0; }
.brand { font-weight: 700; }
.team { font-weight: 400; margin-left: 0.5rem; }
.signout { margin-left: auto; }
nav ul { display: flex; flex-wrap: wrap; gap: 0.25rem 1rem; list-style: none; margin: 0; padding: 0.5rem 1rem;
  border-bottom: 1px solid var(--line); }
nav a[aria-current="page"] { font-weight: 700; text-decoration: none; color: var(--fg); }
main { padding: 1rem; max-width: 72rem; }
main:focus { outline: none; }
footer { padding: 1rem; color: var(--muted); border-top: 1px solid var(--line); }
h1 { font-size: 1.5rem; margin: 0 0 0.5rem; }
h2 { font-size: 1.2rem; margin: 1.5rem 0 0.5rem; }
.scroll { overflow-x: auto; }
.scroll:focus { outline: 2px solid var(--accent); }
table { border-collapse: collapse; width: 100%; }
caption { text-align: left; color: var(--muted); padding: 0.25rem 0; }
th, td { text-align: left; padding: 0.4rem 0.6rem; border-bottom: 1px solid var(--line); vertical-align: top; }
td form, th form { display: inline; }
.muted, .why { color: var(--muted); }
.tag { font-size: 0.8rem; border: 1px solid var(--line); border-radius: 0.75rem; padding: 0 0.4rem; }
.state.on, .state.acked { color: var(--ok); }
.state.warn, .state.held, .state.accepted { color: var(--warn); }
.state.off, .state.refused, .state.undeliverable { color: var(--bad); }
.messages { list-style: none; padding: 0; margin: 0; }
.message { border: 1px solid var(--line); border-radius: 0.4rem; padding: 0.75rem; margin: 0 0 0.75rem; }
.message p { margin: 0.25rem 0; }
.timeline { display: flex; flex-wrap: wrap; gap: 0.25rem 0.5rem; list-style: none; padding: 0; margin: 0.25rem 0; }
.timeline li + li::before { content: "→ "; color: var(--muted); }
pre.body { white-space: pre-wrap; overflow-wrap: anywhere; border: 1px solid var(--line); padding: 0.5rem;
  max-height: 24rem; overflow: auto; }
mark.forged { background: var(--mark); color: var(--fg); outline: 2px solid var(--bad); }
.alert { color: var(--bad); font-weight: 700; }
.actions { display: flex; gap: 0.5rem; margin-top: 0.5rem; }
button { font: inherit; padding: 0.35rem 0.8rem; border: 1px solid var(--line); border-radius: 0.3rem;
  background: var(--bg); color: var(--fg); cursor: pointer; min-height: 2.25rem; }
button:focus-visible, a:focus-visible, input:focus-visible, select:focus-visible, summary:focus-visible {
  outline: 2px solid var(--accent); outline-offset: 2px; }
button.danger { color: var(--bad); border-color: var(--bad); }
input, select { font: inherit; padding: 0.25rem; color: var(--fg); background: var(--bg); border: 1px solid var(--line); }
form.compose { display: grid; gap: 0.35rem; max-width: 40rem; margin-bottom: 1rem; }
form.compose button { justify-self: start; }
textarea { font: inherit; padding: 0.35rem; color: var(--fg); background: var(--bg); border: 1px solid var(--line); }
form.inline { display: flex; flex-wrap: wrap; gap: 0.5rem; align-items: center; margin-bottom: 0.75rem; }
.notice { border: 1px solid var(--line); border-left: 4px solid var(--ok); padding: 0.5rem 0.75rem; margin: 0 0 1rem; }
.notice.error { border-left-color: var(--bad); }
.notice code { overflow-wrap: anywhere; }
.count { display: inline-block; min-width: 1.5rem; text-align: center; border-radius: 0.75rem;
  background: var(--warn); color: var(--bg); font-size: 0.85rem; }
.sr { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; }
.live { color: var(--muted); font-size: 0.9rem; }
.empty { color: var(--muted); }
@media (max-width: 40rem) { .signout { margin-left: 0; } main { padding: 0.75rem; }
  table.cards thead { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); }
  table.cards, table.cards tbody, table.cards tr, table.cards th, table.cards td { display: block; }
  table.cards tr { border: 1px solid var(--line); border-radius: 0.4rem; margin: 0 0 0.75rem; padding: 0.25rem 0; }
  table.cards th, table.cards td { border: none; padding: 0.15rem 0.75rem; }
  table.cards td::before { content: attr(data-label) ": "; color: var(--muted); } }
`;
