/**
 * The short form of an id shown in tables and headers; the full id stays in the title and the
 * copy. Most ids are told apart by their ends, so they keep the first 8 and last 6 characters.
 * A time-ordered UUID (v7, RFC 9562) is not: its first 12 hex digits are the millisecond clock,
 * so every id minted within ~65 s starts with the same 8. Those show their random tail instead.
 */

const UUID_V7 = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/i;

export function shortId(value: string): string {
  if (UUID_V7.test(value)) return `…${value.slice(-12)}`;
  return value.length > 16 ? `${value.slice(0, 8)}…${value.slice(-6)}` : value;
}
