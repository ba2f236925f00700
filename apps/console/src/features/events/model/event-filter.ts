import { eventFamily } from '@settlement/protocol';

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
