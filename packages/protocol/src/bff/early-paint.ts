/**
 * The early paint of `/` (apps/bff static.ts `withEarlyPaint`: the overview's first screen in the
 * HTML, so its largest paint does not wait for the scripts): the console's index.html holds it as
 * a `signed-in-overview` template, and the BFF fills it in for the signed-in operator. Both sides read the template by these rules, so the BFF's
 * fill and the console's test of the markup cannot drift apart.
 */
export type EarlyPaintIdentity = { username: string; role: string; isSandbox: boolean };

/** Markup kept only on the sandbox: the top bar says "Sandbox" there and nowhere else. */
const SANDBOX_ONLY = /<!--sandbox-->([\s\S]*?)<!--\/sandbox-->/g;

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${String(c.charCodeAt(0))};`);
}

/** The template's content for `identity`: names escaped, sandbox-only markup kept or dropped. */
export function fillEarlyPaint(template: string, identity: EarlyPaintIdentity): string {
  return template
    .replace(SANDBOX_ONLY, (_, markup: string) => (identity.isSandbox ? markup : ''))
    .replaceAll('{{username}}', escapeHtml(identity.username))
    .replaceAll('{{role}}', escapeHtml(identity.role));
}
