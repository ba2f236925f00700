import { SupportEventSchema, SupportSearchResultSchema } from '@settlement/protocol';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderWithApp } from '../../../test/render';
import { screenIs } from '../../../test/screen-width';
import type { SupportResult } from '../api/support-search';
import { SupportOperations } from './support-operations';
import { SupportActions, SupportEvents, SupportRequests } from './support-sections';

type SupportRequest = SupportResult['requests'][number];

const call = (overrides: Partial<SupportRequest>): SupportRequest => ({
  at: '2026-11-24T10:00:00.000Z',
  operator: 'treasury',
  operation: 'transactions.create',
  operationId: 'op-1',
  method: 'POST',
  path: '/api/v1/transactions',
  attempt: 1,
  status: 201,
  durationMs: 12,
  requestId: 'bff_01a20f9e-93fa-75a8-9c1d-4f1e2a3b4c5d',
  requestIdSent: 'bff_01a20f9e-93fa-75a8-9c1d-4f1e2a3b4c5d',
  upstreamRequestId: 'bff_01a20f9e-93fa-75a8-9c1d-4f1e2a3b4c5d',
  correlationId: 'corr_7f3e9a21b4c84d0e',
  idempotencyKey: 'op-1',
  error: null,
  ...overrides,
});

describe('SupportRequests', () => {
  it('puts the correlation id first among the ids, and the operator under the call', () => {
    render(<SupportRequests requests={[call({})]} />);
    const headers = within(screen.getByRole('table', { name: 'Upstream calls' }))
      .getAllByRole('columnheader')
      .map((header) => header.textContent);
    expect(headers).toEqual([
      'At',
      'Call',
      'Status',
      'Correlation id',
      'Request id',
      'Upstream request id',
      'Idempotency key',
    ]);
    const [, row] = screen.getAllByRole('row');
    const cells = within(row as HTMLElement).getAllByRole('cell');
    expect(cells.map((cell) => cell.textContent)).toContain(
      'POST /api/v1/transactions12 msby treasury',
    );
  });

  it('says "same" when the upstream echoed our request id, and shows its own id when not', () => {
    render(
      <SupportRequests
        requests={[
          call({}),
          call({
            requestId: 'bff_second',
            requestIdSent: 'bff_second',
            upstreamRequestId: 'req_upstream_minted_0001',
          }),
        ]}
      />,
    );
    const [, echoed, minted] = screen.getAllByRole('row');
    expect(within(echoed as HTMLElement).getByText('as the request id')).toBeInTheDocument();
    expect(
      within(echoed as HTMLElement).queryByRole('button', { name: 'Copy upstream request id' }),
    ).not.toBeInTheDocument();
    expect(
      within(echoed as HTMLElement).getByRole('button', { name: 'Copy correlation id' }),
    ).toBeInTheDocument();
    expect(
      within(minted as HTMLElement).getByRole('button', { name: 'Copy upstream request id' }),
    ).toBeInTheDocument();
    expect(within(minted as HTMLElement).queryByText('as the request id')).not.toBeInTheDocument();
  });
});

describe('SupportOperations', () => {
  it('puts the operator under the operation, leaving seven columns with every id', () => {
    render(
      <SupportOperations
        operations={[
          {
            operationId: 'op-1',
            operation: 'transactions.create',
            operator: 'treasury',
            state: 'succeeded',
            status: 201,
            idempotencyKey: 'op-1',
            clientReference: 'invoice-7',
            upstreamRequestId: 'bff_01a20f9e-93fa-75a8-9c1d-4f1e2a3b4c5d',
            correlationId: 'corr_7f3e9a21b4c84d0e',
            createdAt: '2026-11-24T10:00:00.000Z',
          },
        ]}
      />,
    );
    const table = screen.getByRole('table', { name: 'Journaled operations' });
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((h) => h.textContent),
    ).toEqual([
      'Created',
      'Operation',
      'State',
      'Operation id',
      'Idempotency key',
      'Client reference',
      'Upstream request id',
    ]);
    const [, row] = within(table).getAllByRole('row');
    const cells = within(row as HTMLElement).getAllByRole('cell');
    expect(cells[1]?.textContent).toBe('transactions.createby treasury');
    for (const label of [
      'operation id',
      'idempotency key',
      'client reference',
      'upstream request id',
    ]) {
      expect(
        within(row as HTMLElement).getByRole('button', { name: `Copy ${label}` }),
      ).toBeInTheDocument();
    }
  });
});

describe('SupportEvents', () => {
  const update = (id: string, at: string, data: Record<string, unknown>) =>
    SupportEventSchema.parse({
      id,
      type: 'transaction.updated',
      occurredAt: at,
      correlationId: 'corr-1',
      sequence: null,
      orgId: 'org-1',
      transactionId: 'tx-1',
      walletId: 'w-1',
      accountId: 'a-1',
      txHash: null,
      data: { transactionId: 'tx-1', asset: 'TRX', amountAtomic: '1500000', ...data },
    });

  it('tells apart the updates of one withdrawal, oldest first, amounts in the asset', () => {
    renderWithApp(
      <SupportEvents
        events={[
          update('e2', '2026-11-25T07:40:36.000Z', {
            status: 'PENDING',
            stage: 'BROADCAST',
            confirmations: 1,
          }),
          update('e1', '2026-11-25T07:40:35.000Z', { status: 'PENDING', stage: 'SIGNED' }),
        ]}
        decimalsFor={(asset) => (asset === 'TRX' ? 6 : null)}
      />,
    );
    const table = screen.getByRole('table', { name: 'Events in time order' });
    expect(within(table).getByRole('columnheader', { name: 'What happened' })).toBeInTheDocument();
    const [, first, second] = within(table).getAllByRole('row');
    expect(first).toHaveTextContent('PENDING · 1.5 TRX · SIGNED');
    expect(second).toHaveTextContent('PENDING · 1.5 TRX · BROADCAST · 1 conf.');
  });

  it('links each event to its transaction by the part of the id that tells them apart', () => {
    // Time-ordered ids minted in the same minute share their first 8 characters.
    const ids = ['01a24f3c-5eef-769f-b7de-de070e093021', '01a24f3c-5ef1-7a00-8c11-4b2a9e0f7d13'];
    const event = (id: string, i: number) =>
      SupportEventSchema.parse({
        ...update(`e${String(i)}`, '2026-11-25T07:40:35.000Z', { status: 'PENDING' }),
        transactionId: id,
        data: { transactionId: id, status: 'PENDING' },
      });
    renderWithApp(<SupportEvents events={ids.map(event)} decimalsFor={() => 6} />);
    const table = screen.getByRole('table', { name: 'Events in time order' });
    const links = ids.map((id) => within(table).getByRole('link', { name: `Transaction ${id}` }));
    expect(links.map((link) => link.textContent)).toEqual(['…de070e093021', '…4b2a9e0f7d13']);
    expect(links[0]).toHaveAttribute('href', `/transactions/${ids[0] ?? ''}`);
  });
});

describe('the support sections on a phone', () => {
  const found = SupportSearchResultSchema.parse({
    query: 'corr_7f3e9a21b4c84d0e',
    events: [
      {
        id: 'e1',
        type: 'transaction.updated',
        occurredAt: '2026-11-24T10:00:05.000Z',
        correlationId: 'corr_7f3e9a21b4c84d0e',
        sequence: null,
        orgId: 'org-1',
        transactionId: 'tx-0193a2b4-5c6d',
        walletId: 'w-1',
        accountId: 'a-1',
        txHash: null,
        data: { transactionId: 'tx-0193a2b4-5c6d', status: 'PENDING', stage: 'SIGNED' },
      },
    ],
    requests: [
      call({}),
      call({
        status: 503,
        requestId: 'bff_second_request_id_0002',
        requestIdSent: 'bff_second_request_id_0002',
        upstreamRequestId: 'req_upstream_minted_0001',
      }),
    ],
    actions: [
      {
        at: '2026-11-24T10:00:00.000Z',
        operator: 'treasury',
        action: 'withdrawal.create',
        outcome: 'accepted',
        operationId: 'op-1',
        idempotencyKey: 'op-1',
        upstreamRequestId: 'req_upstream_minted_0001',
        correlationId: 'corr_7f3e9a21b4c84d0e',
        resourceId: null,
        detail: null,
      },
    ],
    operations: [
      {
        operationId: 'op-1',
        operation: 'transactions.create',
        operator: 'treasury',
        state: 'failed',
        status: 502,
        idempotencyKey: 'op-1',
        clientReference: 'invoice-7',
        upstreamRequestId: 'req_upstream_minted_0001',
        correlationId: 'corr_7f3e9a21b4c84d0e',
        createdAt: '2026-11-24T10:00:00.000Z',
      },
    ],
  });

  const cardsOf = (name: string) => {
    expect(screen.queryByRole('table')).not.toBeInTheDocument();
    return within(screen.getByRole('list', { name })).getAllByRole('listitem');
  };
  /** The value of a card's field, found by its term. */
  const field = (card: HTMLElement, term: string) =>
    within(card).getByText(term).nextElementSibling as HTMLElement;
  const timeOf = (card: HTMLElement, term: string) =>
    field(card, term).querySelector('time')?.getAttribute('dateTime');

  afterEach(() => {
    vi.restoreAllMocks();
  });

  it('stacks the upstream calls as cards, each with its call, status, time and copyable ids', async () => {
    screenIs('phone');
    const user = userEvent.setup();
    render(<SupportRequests requests={found.requests} />);
    const [echoed, minted] = cardsOf('Upstream calls') as [HTMLElement, HTMLElement];
    expect(echoed).toHaveTextContent('POST /api/v1/transactions12 msby treasury');
    expect(within(echoed).getByText('201')).toBeInTheDocument();
    expect(timeOf(echoed, 'At')).toBe('2026-11-24T10:00:00.000Z');
    expect(field(echoed, 'Upstream request id')).toHaveTextContent('same as the request id');
    expect(within(minted).getByText('503')).toBeInTheDocument();
    for (const [term, label] of [
      ['Correlation id', 'correlation id'],
      ['Request id', 'request id'],
      ['Upstream request id', 'upstream request id'],
      ['Idempotency key', 'idempotency key'],
    ] as const) {
      expect(
        within(field(minted, term)).getByRole('button', { name: `Copy ${label}` }),
      ).toBeInTheDocument();
    }
    // Shortened on screen as in the table, whole on hover and in the copy.
    const requestId = field(minted, 'Request id');
    expect(within(requestId).getByTitle('bff_second_request_id_0002')).toBeInTheDocument();
    await user.click(within(requestId).getByRole('button', { name: 'Copy request id' }));
    expect(await navigator.clipboard.readText()).toBe('bff_second_request_id_0002');
  });

  it('stacks the events as cards in time order, with what happened, the transaction and the correlation id', () => {
    screenIs('phone');
    renderWithApp(
      <SupportEvents
        events={[
          ...found.events,
          SupportEventSchema.parse({
            ...found.events[0],
            id: 'e0',
            occurredAt: '2026-11-24T10:00:01.000Z',
            data: { status: 'PENDING', stage: 'CREATED' },
          }),
        ]}
        decimalsFor={() => null}
      />,
    );
    const [first, second] = cardsOf('Events in time order') as [HTMLElement, HTMLElement];
    expect(timeOf(first, 'Occurred')).toBe('2026-11-24T10:00:01.000Z');
    expect(field(first, 'What happened')).toHaveTextContent('PENDING · CREATED');
    expect(field(first, 'Transaction')).toHaveTextContent('—');
    expect(within(second).getByText('transaction.updated')).toBeInTheDocument();
    expect(within(field(second, 'Transaction')).getByRole('link')).toHaveAttribute(
      'href',
      '/transactions/tx-0193a2b4-5c6d',
    );
    expect(
      within(field(second, 'Correlation id')).getByRole('button', { name: 'Copy correlation id' }),
    ).toBeInTheDocument();
  });

  it('stacks the operator actions as cards, each with its action, outcome, operator, time and ids', () => {
    screenIs('phone');
    render(<SupportActions actions={found.actions} />);
    const [card] = cardsOf('Operator actions') as [HTMLElement];
    expect(within(card).getByText('withdrawal.create')).toBeInTheDocument();
    expect(within(card).getByText('accepted')).toBeInTheDocument();
    expect(field(card, 'Operator')).toHaveTextContent('treasury');
    expect(timeOf(card, 'At')).toBe('2026-11-24T10:00:00.000Z');
    for (const label of ['correlation id', 'upstream request id', 'idempotency key']) {
      expect(within(card).getByRole('button', { name: `Copy ${label}` })).toBeInTheDocument();
    }
  });

  it('stacks the journaled operations as cards, each with its operation, state, time and ids', () => {
    screenIs('phone');
    render(<SupportOperations operations={found.operations} />);
    const [card] = cardsOf('Journaled operations') as [HTMLElement];
    expect(card).toHaveTextContent('transactions.createby treasury');
    expect(within(card).getByText('failed · 502')).toBeInTheDocument();
    expect(timeOf(card, 'Created')).toBe('2026-11-24T10:00:00.000Z');
    for (const label of [
      'operation id',
      'idempotency key',
      'client reference',
      'upstream request id',
    ]) {
      expect(within(card).getByRole('button', { name: `Copy ${label}` })).toBeInTheDocument();
    }
  });

  it('keeps every section a table on a wide screen, and no list', () => {
    screenIs('desktop');
    renderWithApp(
      <>
        <SupportEvents events={found.events} decimalsFor={() => null} />
        <SupportRequests requests={found.requests} />
        <SupportActions actions={found.actions} />
        <SupportOperations operations={found.operations} />
      </>,
    );
    for (const name of [
      'Events in time order',
      'Upstream calls',
      'Operator actions',
      'Journaled operations',
    ]) {
      expect(screen.getByRole('table', { name })).toBeInTheDocument();
      expect(screen.queryByRole('list', { name })).not.toBeInTheDocument();
    }
  });
});
