import type { Services } from '../services/services';
import type { IdempotentExecutor } from '../services/idempotent';
import type { Sql } from '../store/sql';
import { createAddressBookService, type AddressBookService } from './address-book';
import { createGovernanceContext } from './context';
import { createPolicyService, type PolicyService } from './policy-service';
import { createWithdrawals, type Withdrawals } from './withdrawals';

const SWEEP_INTERVAL_MS = 60_000;

export type Governance = {
  policy: PolicyService;
  withdrawals: Withdrawals;
  addressBook: AddressBookService;
  /** Resumes approved requests (after a restart) now, then expires and resumes periodically. */
  start(): void;
  stop(): void;
};

/** Withdrawal governance: policy, approvals and address book, over the BFF's own database. */
export function createGovernance(deps: {
  services: Services;
  executor: IdempotentExecutor;
  db: Sql;
  broadcast: (frame: string) => void;
  sweepIntervalMs?: number;
}): Governance {
  const ctx = createGovernanceContext(deps);
  const withdrawals = createWithdrawals(ctx);
  let timer: NodeJS.Timeout | null = null;
  const sweep = () => {
    withdrawals.sweep().catch((error: unknown) => {
      deps.services.logger.error({ err: error }, 'withdrawal request sweep failed');
    });
  };
  return {
    policy: createPolicyService(ctx),
    withdrawals,
    addressBook: createAddressBookService(ctx),
    start() {
      if (timer) return;
      sweep();
      timer = setInterval(sweep, deps.sweepIntervalMs ?? SWEEP_INTERVAL_MS);
      timer.unref();
    },
    stop() {
      if (timer) clearInterval(timer);
      timer = null;
    },
  };
}
