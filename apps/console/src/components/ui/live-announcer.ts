/**
 * One polite live region for the whole page, for short confirmations ("client reference
 * copied"). A region per control cost one more element in every list row for a message that
 * is rare; a region must already be in the document when its text changes, so it is made once,
 * on the first use of a control that may announce, and kept.
 */
let region: HTMLElement | null = null;

export function ensureAnnouncer(): HTMLElement {
  if (region?.isConnected) return region;
  region = document.createElement('div');
  // A live region without a role: the page's status roles stay the ones its components show.
  region.setAttribute('aria-live', 'polite');
  region.className = 'sr-only';
  document.body.append(region);
  return region;
}

/** Says `message` once: a new text node each time, so the same message twice is read twice. */
export function announce(message: string): void {
  ensureAnnouncer().replaceChildren(document.createTextNode(message));
}

/** Clears `message` if it is still what the region says (a later message stays). */
export function withdraw(message: string): void {
  if (region?.textContent === message) region.replaceChildren();
}
