// The dashboard page's one script (docs/52-dashboard.md), served as a module from this server
// (the CSP allows no other script). It follows the server over Server-Sent Events and swaps in
// the regions the server re-rendered; it never polls and never builds markup from data itself:
// every region arrives as the server's escaped HTML.

/** The event stream's `regions` payload: region name → its new markup. */
type Regions = Readonly<Record<string, string>>;

const status = document.getElementById("live-status");

function say(text: string): void {
  if (status !== null) status.textContent = text;
}

/** Replaces each named region's content, keeping focus on the same control when it still exists. */
function apply(regions: Regions): void {
  const focused = document.activeElement;
  const key = focused instanceof HTMLElement ? focusKey(focused) : null;
  for (const [name, markup] of Object.entries(regions)) {
    for (const element of document.querySelectorAll<HTMLElement>(`[data-region="${name}"]`)) {
      element.innerHTML = markup;
    }
  }
  if (key !== null && !document.contains(focused)) {
    const again = document.querySelector<HTMLElement>(key);
    again?.focus();
  }
}

/** A selector that finds a control again after its region was re-rendered, or `null`. */
function focusKey(element: HTMLElement): string | null {
  const item = element.closest<HTMLElement>("[data-message]");
  const form = element.closest("form");
  if (item === null || form === null) return null;
  const id = item.dataset.message ?? "";
  const action = form.getAttribute("action") ?? "";
  if (!/^[A-Za-z0-9_-]+$/.test(id) || !/^[a-z/-]+$/.test(action)) return null;
  return `[data-message="${id}"] form[action="${action}"] button`;
}

function time(): string {
  return new Date().toISOString().slice(11, 19);
}

function follow(): void {
  const events = new EventSource("/dashboard/events");
  events.addEventListener("open", () => say("Live updates: on"));
  events.addEventListener("error", () => say("Live updates: reconnecting…"));
  events.addEventListener("regions", (event) => {
    apply(JSON.parse((event as MessageEvent<string>).data) as Regions);
    say(`Live updates: on, last change ${time()} UTC`);
  });
  events.addEventListener("signed-out", () => {
    events.close();
    window.location.assign("/dashboard");
  });
  events.addEventListener("shutdown", () => say("Live updates: the server is restarting…"));
}

follow();
