import { AuditItemSchema } from '@settlement/protocol';
import { screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderWithApp } from '../../../test/render';
import { screenIs } from '../../../test/screen-width';
import { auditPageOf } from '../audit-fixtures';
import { AuditTable } from './audit-table';

const page = auditPageOf({ page: 1, limit: 2, snapshotAt: '2026-03-01T10:00:00.000Z', total: 2 });
const everyId = AuditItemSchema.parse({
  id: 99,
  at: '2026-03-01T09:30:00.000Z',
  operator: null,
  action: 'operator.update',
  outcome: 'rejected',
  operationId: 'op-99',
  idempotencyKey: 'idem-99',
  upstreamRequestId: 'up-req-99',
  correlationId: 'corr-99',
  resourceId: 'treasury',
  detail: 'role unchanged',
});
const items = [...page.items, everyId];

afterEach(() => {
  vi.restoreAllMocks();
});

describe('the audit log', () => {
  it('is a table on a wide screen, and no list', () => {
    screenIs('desktop');
    renderWithApp(<AuditTable items={items} />);
    const table = screen.getByRole('table', { name: 'Audit log' });
    expect(within(table).getAllByRole('row')).toHaveLength(items.length + 1);
    expect(screen.queryByRole('list', { name: 'Audit log' })).not.toBeInTheDocument();
  });

  it('stacks each action as a card on a phone, its action, outcome, time, operator and detail in view', () => {
    screenIs('phone');
    renderWithApp(<AuditTable items={items} />);
    expect(screen.queryByRole('table')).not.toBeInTheDocument();
    const cards = within(screen.getByRole('list', { name: 'Audit log' })).getAllByRole('listitem');
    expect(cards).toHaveLength(items.length);
    const card = within(cards[items.length - 1] as HTMLElement);
    expect(card.getByText('operator.update')).toBeInTheDocument();
    expect(card.getByText('rejected')).toBeInTheDocument();
    expect(card.getByText('At').nextElementSibling?.querySelector('time')).toHaveAttribute(
      'dateTime',
      '2026-03-01T09:30:00.000Z',
    );
    expect(card.getByText('Operator').nextElementSibling).toHaveTextContent('—');
    expect(card.getByText('Detail').nextElementSibling).toHaveTextContent('role unchanged');
  });

  it('keeps every id of a card a link to its timeline with its copy button, on a phone', () => {
    screenIs('phone');
    renderWithApp(<AuditTable items={items} />);
    const [first, , last] = within(screen.getByRole('list', { name: 'Audit log' })).getAllByRole(
      'listitem',
    );
    const ids = [
      ['Operation id', 'operation id', 'op-99'],
      ['Idempotency key', 'idempotency key', 'idem-99'],
      ['Upstream request id', 'upstream request id', 'up-req-99'],
      ['Correlation id', 'correlation id', 'corr-99'],
      ['Resource id', 'resource id', 'treasury'],
    ] as const;
    for (const [term, label, value] of ids) {
      const field = within(last as HTMLElement).getByText(term).nextElementSibling as HTMLElement;
      expect(within(field).getByRole('link', { name: value })).toHaveAttribute(
        'href',
        `/timeline?q=${value}`,
      );
      expect(
        within(field).getByRole('button', { name: `Copy ${label} ${value}` }),
      ).toBeInTheDocument();
    }
    // A card states only the ids its action has.
    expect(within(first as HTMLElement).queryByText('Resource id')).not.toBeInTheDocument();
    expect(
      within(first as HTMLElement).getByRole('button', { name: 'Copy correlation id corr-2' }),
    ).toBeInTheDocument();
  });
});
