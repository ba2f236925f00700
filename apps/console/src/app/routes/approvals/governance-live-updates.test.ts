import { describe, expect, it } from 'vitest';
import { governanceKeys } from '../../../features/governance/api/keys';
import { transactionKeys } from '../../../features/transactions/api/keys';
import { keysForPath } from '../../live-updates';

describe('governance change frames', () => {
  it('invalidate the request lists and detail, the policy and the address book', () => {
    expect(keysForPath('/bff/withdrawal-requests')).toEqual([
      { queryKey: governanceKeys.requestLists(), exact: false },
      { queryKey: transactionKeys.dryRuns(), exact: false },
    ]);
    expect(keysForPath('/bff/withdrawal-requests/wr_1')).toEqual([
      { queryKey: governanceKeys.requestDetail('wr_1'), exact: true },
    ]);
    expect(keysForPath('/bff/policy')).toEqual([
      { queryKey: governanceKeys.policy(), exact: false },
      { queryKey: transactionKeys.dryRuns(), exact: false },
    ]);
    expect(keysForPath('/bff/address-book')).toEqual([
      { queryKey: governanceKeys.addressBook(), exact: false },
      { queryKey: transactionKeys.addressBook(), exact: true },
      { queryKey: transactionKeys.dryRuns(), exact: false },
    ]);
  });
});
