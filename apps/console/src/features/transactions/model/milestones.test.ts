import type { SupportEvent, Transaction } from '@settlement/protocol';
import { describe, expect, it } from 'vitest';
import { supportEventFixture } from '../bff-fixtures';
import { buildTimeline } from './milestones';

const AT = '2025-01-01T00:00:00.000Z';

function withdrawal(overrides: Partial<Transaction>): Transaction {
  return {
    id: 'tx_1',
    walletId: 'wal_1',
    account: { id: 'acc_1', name: 'Treasury' },
    type: 'WITHDRAWAL',
    status: 'PENDING',
    chain: 'tron:nile',
    asset: 'TRX',
    amountAtomic: '20000000',
    onChainDetails: null,
    createdAt: AT,
    updatedAt: AT,
    ...overrides,
  };
}

let seq = 0;
/** An event as the sandbox stores it: lifecycle data with its `stage` and `txHash`. */
function event(type: string, stage: string, txHash: string | null = null): SupportEvent {
  seq += 1;
  return supportEventFixture({
    id: `ev_${seq}`,
    type,
    occurredAt: `2025-01-01T00:00:${String(seq).padStart(2, '0')}.000Z`,
    data: { transactionId: 'tx_1', stage, txHash, confirmations: txHash ? 1 : 0 },
  });
}

const states = (milestones: ReturnType<typeof buildTimeline>) =>
  Object.fromEntries(milestones.map((m) => [m.key, m.state]));

describe('buildTimeline', () => {
  it('a withdrawal FAILED before broadcast shows signing done and broadcast never happened', () => {
    // The sandbox's own sequence: created, reserved, claimed, signed, then failed in stage DONE.
    const events = [
      event('transaction.created', 'RESERVED'),
      event('transaction.updated', 'RESERVED'),
      event('transaction.updated', 'SIGNING'),
      event('transaction.updated', 'SIGNED'),
      event('transaction.failed', 'DONE'),
    ];
    const tx = withdrawal({ status: 'FAILED', failureCode: 'BROADCAST_REJECTED' });
    expect(states(buildTimeline(tx, events))).toEqual({
      created: 'done',
      reserved: 'done',
      signing: 'done',
      broadcast: 'skipped',
      confirmations: 'skipped',
      terminal: 'failed',
    });
    const skipped = buildTimeline(tx, events).filter((m) => m.state === 'skipped');
    expect(skipped.map((m) => m.at)).toEqual([null, null]);
  });

  it('a withdrawal that timed out while signing shows neither signing nor broadcast done', () => {
    const events = [
      event('transaction.created', 'RESERVED'),
      event('transaction.updated', 'SIGNING'),
      event('transaction.failed', 'DONE'),
    ];
    const tx = withdrawal({ status: 'FAILED', failureCode: 'CO_SIGNER_TIMEOUT' });
    const milestones = states(buildTimeline(tx, events));
    expect(milestones.signing).toBe('skipped');
    expect(milestones.broadcast).toBe('skipped');
  });

  it('a FAILED_ON_CHAIN withdrawal was broadcast even without its events', () => {
    const tx = withdrawal({
      status: 'FAILED_ON_CHAIN',
      onChainDetails: {
        txHash: 'ab'.repeat(32),
        fromAddress: 'TA',
        toAddress: 'TB',
        blockNumber: 7,
        confirmations: 19,
        requiredConfirmations: 19,
        broadcastAt: AT,
      },
    });
    expect(states(buildTimeline(tx, []))).toMatchObject({
      signing: 'done',
      broadcast: 'done',
      terminal: 'failed',
    });
  });

  it('a live withdrawal keeps its next step current and later ones pending', () => {
    const events = [
      event('transaction.created', 'RESERVED'),
      event('transaction.updated', 'SIGNED'),
    ];
    expect(states(buildTimeline(withdrawal({}), events))).toMatchObject({
      signing: 'done',
      broadcast: 'current',
      confirmations: 'pending',
      terminal: 'pending',
    });
  });
});
