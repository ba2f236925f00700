import { PolicySettingsSchema, type GovernanceTopic, type Policy } from '@settlement/protocol';
import type { Services } from '../services/services';
import type { IdempotentExecutor } from '../services/idempotent';
import type { Sql } from '../store/sql';
import type { AuditAction } from '../store/logs';
import { createAddressBookStore, type AddressBookStore } from './address-book-store';
import { createJudge, type Judge } from './judge';
import { createPolicyStore, type PolicyStore } from './policy-store';
import { createRequestStore, type RequestStore } from './request-store';
import { createUpstreamFacts, type UpstreamFacts } from './upstream-facts';

type GovernanceAudit = {
  operator: string | null;
  action: AuditAction;
  outcome: string;
  operationId?: string | null;
  resourceId?: string | null;
  correlationId?: string | null;
  upstreamRequestId?: string | null;
  detail?: string | null;
};

/** What every governance service shares: stores, the judge, audit and live notifications. */
export type GovernanceContext = {
  services: Services;
  executor: IdempotentExecutor;
  policies: PolicyStore;
  requests: RequestStore;
  book: AddressBookStore;
  facts: UpstreamFacts;
  judge: Judge;
  currentPolicy(): Promise<Policy>;
  audit(entry: GovernanceAudit): Promise<void>;
  /** A relay `change` frame so other consoles refetch the listed BFF paths. */
  notify(topic: GovernanceTopic, invalidates: string[]): void;
};

/** Before any version is stored nothing is allowed (default deny). */
function emptyPolicy(): Policy {
  return {
    version: 0,
    rules: [],
    limits: [],
    settings: PolicySettingsSchema.parse({}),
    createdBy: '',
    createdAt: new Date(0).toISOString(),
  };
}

export function createGovernanceContext(deps: {
  services: Services;
  executor: IdempotentExecutor;
  db: Sql;
  broadcast: (frame: string) => void;
}): GovernanceContext {
  const { services } = deps;
  const policies = createPolicyStore(deps.db, services.now);
  const requests = createRequestStore(deps.db, services.now);
  const book = createAddressBookStore(deps.db, services.now);
  const facts = createUpstreamFacts(services);
  const currentPolicy = async () => (await policies.current()) ?? emptyPolicy();
  return {
    services,
    executor: deps.executor,
    policies,
    requests,
    book,
    facts,
    currentPolicy,
    judge: createJudge({ facts, book, requests, policy: currentPolicy, now: services.now }),
    async audit(entry) {
      await services.logs.audit({
        at: services.now(),
        operator: entry.operator,
        action: entry.action,
        outcome: entry.outcome,
        operationId: entry.operationId ?? null,
        idempotencyKey: null,
        upstreamRequestId: entry.upstreamRequestId ?? null,
        correlationId: entry.correlationId ?? null,
        resourceId: entry.resourceId ?? null,
        detail: entry.detail ?? null,
      });
    },
    notify(topic, invalidates) {
      deps.broadcast(JSON.stringify({ kind: 'change', topic, invalidates }));
    },
  };
}
