import { SupportEventSchema } from '@settlement/protocol';
import { render, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderWithApp } from '../../../test/render';
import type { SupportResult } from '../api/support-search';
import { SupportEvents, SupportOperations, SupportRequests } from './support-sections';

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
});
