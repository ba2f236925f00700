import { WITHDRAWAL_REQUEST_LIST_MAX } from '@settlement/protocol';
import { describe, expect, it } from 'vitest';
import { withdrawalRequestFixture } from '../../../test/governance-fixtures';
import { committedFor, committedPerAsset, openRequestsOf } from './open-requests';

const awaiting = [
  withdrawalRequestFixture({ id: 'wr_a', amountAtomic: '9007199254740993' }),
  withdrawalRequestFixture({ id: 'wr_b', walletId: 'wal_2', amountAtomic: '5' }),
  withdrawalRequestFixture({ id: 'wr_c', asset: 'USDT', amountAtomic: '7' }),
];
const approved = [
  withdrawalRequestFixture({ id: 'wr_d', status: 'APPROVED', amountAtomic: '1' }),
  withdrawalRequestFixture({
    id: 'wr_e',
    status: 'APPROVED',
    chain: 'tron:mainnet',
    amountAtomic: '2',
  }),
];

describe('open requests', () => {
  it('is unknown until both lists are read', () => {
    expect(openRequestsOf(awaiting, undefined)).toBeNull();
    expect(openRequestsOf(undefined, approved)).toBeNull();
  });

  it('sums one wallet and asset in bigint, past 2^53, and can leave the request in hand out', () => {
    const open = openRequestsOf(awaiting, approved)!;
    // 9007199254740993 + 1 + 2: Number would have rounded the first to ...992.
    expect(committedFor(open, 'wal_1', 'TRX')).toEqual({
      amountAtomic: 9007199254740996n,
      count: 3,
    });
    expect(committedFor(open, 'wal_1', 'TRX', 'wr_a')).toEqual({ amountAtomic: 3n, count: 2 });
    expect(committedFor(open, 'wal_1', 'USDT')).toEqual({ amountAtomic: 7n, count: 1 });
    expect(committedFor(open, 'wal_9', 'TRX')).toEqual({ amountAtomic: 0n, count: 0 });
  });

  it('sums per chain and asset over every wallet, sorted by chain then asset', () => {
    const open = openRequestsOf(awaiting, approved)!;
    expect(committedPerAsset(open)).toEqual([
      { chain: 'tron:mainnet', asset: 'TRX', amountAtomic: 2n, count: 1 },
      { chain: 'tron:nile', asset: 'TRX', amountAtomic: 9007199254740999n, count: 3 },
      { chain: 'tron:nile', asset: 'USDT', amountAtomic: 7n, count: 1 },
    ]);
  });

  it('says "at least" once either list is full', () => {
    expect(openRequestsOf(awaiting, approved)?.isAtLeast).toBe(false);
    const full = Array.from({ length: WITHDRAWAL_REQUEST_LIST_MAX }, (_, i) =>
      withdrawalRequestFixture({ id: `wr_${i}`, status: 'APPROVED' }),
    );
    expect(openRequestsOf([], full)?.isAtLeast).toBe(true);
    expect(openRequestsOf(full, [])?.isAtLeast).toBe(true);
  });
});
