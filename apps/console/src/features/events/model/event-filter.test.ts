import { describe, expect, it } from 'vitest';
import { filterEvents } from './event-filter';

const events = [
  {
    id: 'e1',
    type: 'transaction.confirmed',
    occurredAt: '2026-01-01T00:00:03Z',
    correlationId: 'corr-A',
    data: { status: 'CONFIRMED', asset: 'TRX', amountAtomic: '5' },
  },
  {
    id: 'e2',
    type: 'deposit.observed',
    occurredAt: '2026-01-01T00:00:02Z',
    correlationId: 'corr-B',
    data: { txHash: 'ab12', confirmations: 1 },
  },
  {
    id: 'e3',
    type: 'account.created',
    occurredAt: '2026-01-01T00:00:01Z',
    correlationId: null,
    data: { name: 'Merchant Z' },
  },
];

describe('filterEvents', () => {
  it('filters by family, by exact type and by free text over ids and payload', () => {
    expect(
      filterEvents(events, { family: 'deposit', type: '', text: '' }).map((e) => e.id),
    ).toEqual(['e2']);
    expect(
      filterEvents(events, { family: '', type: 'account.created', text: '' }).map((e) => e.id),
    ).toEqual(['e3']);
    expect(filterEvents(events, { family: '', type: '', text: 'CORR-a' }).map((e) => e.id)).toEqual(
      ['e1'],
    );
    expect(
      filterEvents(events, { family: '', type: '', text: 'merchant z' }).map((e) => e.id),
    ).toEqual(['e3']);
    expect(filterEvents(events, { family: '', type: '', text: '' })).toHaveLength(3);
  });
});
