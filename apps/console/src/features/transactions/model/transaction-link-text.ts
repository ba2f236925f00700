import { createIdleAhead } from '../../../lib/idle-ahead';
import { shortId } from '../../../lib/short-id';

/** What a transaction's link in a list shows and points at. */
export type TransactionLinkText = {
  /** The in-app path of its page. */
  to: string;
  /** The link's accessible name: the whole id. */
  label: string;
  /** The id as the link shows it (see shortId). */
  short: string;
};

/**
 * Link texts by transaction id. A row's link made these three strings each time the row showed
 * another transaction: ~10% of what a scroll step through a long list allocated (Chromium's
 * sampling heap profiler), and each young-generation collection lands in some step. Bounded as
 * the timestamps' cache is: cleared when full.
 */
const texts = new Map<string, TransactionLinkText>();
const MAX_TEXTS = 20_000;
/** Preparing ahead stops here: the rest is left for what is shown. */
const MAX_AHEAD = MAX_TEXTS * 0.75;

export function transactionLinkText(id: string): TransactionLinkText {
  let text = texts.get(id);
  if (text === undefined) {
    if (texts.size >= MAX_TEXTS) texts.clear();
    text = {
      to: `/transactions/${encodeURIComponent(id)}`,
      label: `Transaction ${id}`,
      short: shortId(id),
    };
    texts.set(id, text);
  }
  return text;
}

const prepareAhead = createIdleAhead();

/** Makes the link texts of rows that arrived in idle time, before they are scrolled to. */
export function linkTextsAheadWhenIdle(rows: readonly { id: string }[]): void {
  prepareAhead(rows, (row) => {
    if (texts.size >= MAX_AHEAD) return false;
    transactionLinkText(row.id);
    return true;
  });
}
