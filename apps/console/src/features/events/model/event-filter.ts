import { AtomicAmountSchema, atomicToDisplay, eventFamily } from '@settlement/protocol';

export type FeedEvent = {
  id: string;
  type: string;
  occurredAt: string;
  correlationId?: string | null | undefined;
  data: Record<string, unknown>;
};

export type EventFilter = { family: string; type: string; text: string };

export const EVENT_FAMILIES = ['account', 'wallet', 'transaction', 'deposit'] as const;

/** Family, exact type, and free text over id, type, correlationId and the payload. */
export function filterEvents<T extends FeedEvent>(events: readonly T[], filter: EventFilter): T[] {
  const text = filter.text.trim().toLowerCase();
  return events.filter((event) => {
    if (filter.family && eventFamily(event.type) !== filter.family) return false;
    if (filter.type && event.type !== filter.type) return false;
    if (!text) return true;
    return (
      event.id.toLowerCase().includes(text) ||
      event.type.toLowerCase().includes(text) ||
      (event.correlationId ?? '').toLowerCase().includes(text) ||
      JSON.stringify(event.data).toLowerCase().includes(text)
    );
  });
}

/**
 * A one-line summary of what happened. Amounts in the asset's units (the catalog's decimals,
 * exact); in atomic units, said so, only when the asset is unknown.
 */
export function eventSummary(
  event: FeedEvent,
  decimalsFor: (asset: string) => number | null = () => null,
): string {
  const { data } = event;
  const parts: string[] = [];
  const asset = typeof data.asset === 'string' ? data.asset : null;
  const amount = data.amountAtomic;
  if (typeof data.status === 'string' && data.status) parts.push(data.status);
  if (typeof amount === 'string' && AtomicAmountSchema.safeParse(amount).success) {
    const decimals = asset ? decimalsFor(asset) : null;
    parts.push(
      decimals === null
        ? `${amount} atomic${asset ? ` ${asset}` : ''}`
        : `${atomicToDisplay(amount, decimals, { grouping: true })} ${asset ?? ''}`.trim(),
    );
  } else if (asset) {
    parts.push(asset);
  }
  for (const key of ['name', 'address', 'stage'] as const) {
    const value = data[key];
    if (typeof value === 'string' && value) parts.push(value);
  }
  const confirmations = data.confirmations;
  if (typeof confirmations === 'number') parts.push(`${confirmations} conf.`);
  return parts.join(' · ');
}
