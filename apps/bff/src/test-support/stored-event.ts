import type { NormalizedEvent } from '@settlement/protocol';

/** A business event as the relay stores it, with `id` and whatever `data` a test needs. */
export function businessEvent(id: string, data: Record<string, unknown> = {}): NormalizedEvent {
  return {
    kind: 'business',
    id,
    type: 'transaction.updated',
    version: 1,
    orgId: 'org',
    occurredAt: '2026-01-01T00:00:00.000Z',
    correlationId: `corr-${id}`,
    sequence: null,
    envelope: 'mvp',
    data,
    raw: {},
  };
}
