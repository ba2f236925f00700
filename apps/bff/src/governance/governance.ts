import { isUpstreamReady } from '../services/health';
import type { Services } from '../services/services';
import type { IdempotentExecutor } from '../services/idempotent';
import type { Sql } from '../store/sql';
import { createAddressBookService, type AddressBookService } from './address-book';
import { createGovernanceContext } from './context';
import { createPolicyService, type PolicyService } from './policy-service';
import { createSweepSchedule } from './sweep-schedule';
import { createWithdrawals, type Withdrawals } from './withdrawals';

const SWEEP_INTERVAL_MS = 60_000;
/**
 * After a submission the upstream did not take: the first retry (then 4 s, 8 s ... 60 s), and
 * how often the upstream is probed meanwhile, so the sweep resumes when it answers again.
 */
const RESUME_FIRST_RETRY_MS = 2_000;

export type Governance = {
  policy: PolicyService;
  withdrawals: Withdrawals;
  addressBook: AddressBookService;
  /**
   * Resumes approved requests (after a restart) now, then expires and resumes periodically,
   * and within seconds after a submission the upstream did not take.
   */
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
  resumeFirstRetryMs?: number;
}): Governance {
  const ctx = createGovernanceContext(deps);
  const schedule = createSweepSchedule({
    sweep: () => withdrawals.sweep(),
    intervalMs: deps.sweepIntervalMs ?? SWEEP_INTERVAL_MS,
    firstRetryMs: deps.resumeFirstRetryMs ?? RESUME_FIRST_RETRY_MS,
    probe: () => isUpstreamReady(deps.services, 'governance.probe'),
    onError: (error) => {
      deps.services.logger.error({ err: error }, 'withdrawal request sweep failed');
    },
  });
  const withdrawals = createWithdrawals(ctx, {
    onDeferred: () => {
      schedule.resumeSoon();
    },
  });
  return {
    policy: createPolicyService(ctx),
    withdrawals,
    addressBook: createAddressBookService(ctx),
    start() {
      schedule.start();
    },
    stop() {
      schedule.stop();
    },
  };
}
