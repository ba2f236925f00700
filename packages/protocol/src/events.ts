import { z } from 'zod/mini';
import { AtomicAmountSchema } from './amounts';
import { TimestampSchema } from './schemas/common';

/**
 * The event stream: both envelopes of the interface, the data of every event kind,
 * normalization to one shape, dedupe, and which REST resources an event invalidates.
 */

export const EVENT_TYPES = [
  'account.created',
  'wallet.created',
  'wallet.creation_failed',
  'wallet.status_changed',
  'transaction.created',
  'transaction.updated',
  'transaction.confirmed',
  'transaction.failed',
  'transaction.failed_on_chain',
  'deposit.observed',
  'deposit.confirmed',
  'deposit.credited',
] as const;
export type EventType = (typeof EVENT_TYPES)[number];
export const SYSTEM_EVENT_TYPES = ['system.connected', 'system.error'] as const;
export type SystemEventType = (typeof SYSTEM_EVENT_TYPES)[number];
export const LEGACY_CONNECTED = 'SYSTEM_CONNECTED';

const nullableString = z.nullable(z.string());

export const AccountCreatedDataSchema = z.lazy(() =>
  z.looseObject({
    accountId: z.string(),
    orgId: z.string(),
    name: z.string(),
    externalId: nullableString,
    createdAt: TimestampSchema,
    requestId: z.string(),
    idempotencyKey: nullableString,
  }),
);

export const WalletCreatedDataSchema = z.lazy(() =>
  z.looseObject({
    walletId: z.string(),
    accountId: z.string(),
    orgId: z.string(),
    chain: z.string(),
    address: z.string(),
    status: z.string(),
    createdAt: TimestampSchema,
    requestId: z.string(),
    idempotencyKey: nullableString,
  }),
);

export const WalletCreationFailedDataSchema = z.lazy(() =>
  z.looseObject({
    accountId: z.string(),
    chain: z.string(),
    status: z.string(),
    errorCode: z.string(),
  }),
);

export const WalletStatusChangedDataSchema = z.lazy(() =>
  z.looseObject({
    walletId: z.string(),
    accountId: z.optional(z.string()),
    status: z.string(),
    previousStatus: z.optional(nullableString),
  }),
);

/** Transaction lifecycle data: the interface's minimum; nullable fields are null when n/a. */
export const TransactionEventDataSchema = z.lazy(() =>
  z.looseObject({
    transactionId: z.string(),
    transactionGroupId: nullableString,
    sourceTransactionId: nullableString,
    destinationTransactionId: nullableString,
    orgId: z.string(),
    accountId: z.string(),
    walletId: z.string(),
    destinationAccountId: nullableString,
    destinationWalletId: nullableString,
    chain: z.string(),
    asset: z.string(),
    amountAtomic: AtomicAmountSchema,
    amountDirection: z.string(),
    isInternalTransfer: z.boolean(),
    transferKind: z.string(),
    fromAddress: nullableString,
    toAddress: nullableString,
    txHash: nullableString,
    status: z.string(),
    sourceStatus: nullableString,
    destinationStatus: nullableString,
    failureCode: nullableString,
    failureMessage: nullableString,
  }),
);
export type TransactionEventData = z.infer<typeof TransactionEventDataSchema>;

export const DepositEventDataSchema = z.lazy(() =>
  z.looseObject({
    transactionId: nullableString,
    walletId: z.string(),
    accountId: z.string(),
    chain: z.string(),
    asset: z.string(),
    amountAtomic: AtomicAmountSchema,
    txHash: z.string(),
    blockNumber: z.nullable(z.int()),
    confirmations: z.int().check(z.nonnegative()),
    requiredConfirmations: z.int().check(z.positive()),
  }),
);
export type DepositEventData = z.infer<typeof DepositEventDataSchema>;

const GenericDataSchema = z.lazy(() => z.record(z.string(), z.unknown()));

export const EVENT_DATA_SCHEMAS: Record<EventType, z.ZodMiniType<Record<string, unknown>>> = {
  'account.created': AccountCreatedDataSchema,
  'wallet.created': WalletCreatedDataSchema,
  'wallet.creation_failed': WalletCreationFailedDataSchema,
  'wallet.status_changed': WalletStatusChangedDataSchema,
  'transaction.created': TransactionEventDataSchema,
  'transaction.updated': TransactionEventDataSchema,
  'transaction.confirmed': TransactionEventDataSchema,
  'transaction.failed': TransactionEventDataSchema,
  'transaction.failed_on_chain': TransactionEventDataSchema,
  'deposit.observed': DepositEventDataSchema,
  'deposit.confirmed': DepositEventDataSchema,
  'deposit.credited': DepositEventDataSchema,
};

export const MvpEnvelopeSchema = z.lazy(() =>
  z.looseObject({
    type: z.literal('EVENT'),
    event: z.string().check(z.minLength(1)),
    eventId: z.optional(z.string().check(z.minLength(1))),
    version: z.optional(z.int().check(z.positive())),
    orgId: z.optional(z.string()),
    occurredAt: z.optional(TimestampSchema),
    correlationId: z.optional(nullableString),
    data: z.optional(GenericDataSchema),
  }),
);
export type MvpEnvelope = z.infer<typeof MvpEnvelopeSchema>;

export const TopicEnvelopeSchema = z.lazy(() =>
  z.looseObject({
    op: z.literal('event'),
    subId: z.optional(nullableString),
    id: z.optional(z.string().check(z.minLength(1))),
    sequence: z.optional(z.int().check(z.nonnegative())),
    subject: z.string().check(z.minLength(1)),
    occurredAt: z.optional(TimestampSchema),
    orgId: z.optional(z.string()),
    correlationId: z.optional(nullableString),
    version: z.optional(z.int().check(z.positive())),
    data: z.optional(GenericDataSchema),
  }),
);
export type TopicEnvelope = z.infer<typeof TopicEnvelopeSchema>;

export type NormalizedEvent = {
  kind: 'business';
  id: string;
  type: string;
  version: number;
  orgId: string;
  occurredAt: string;
  correlationId: string | null;
  sequence: number | null;
  envelope: 'mvp' | 'topic';
  data: Record<string, unknown>;
  raw: unknown;
};

export type SystemEvent = {
  kind: 'system';
  type: SystemEventType;
  orgId: string | null;
  envelope: 'mvp' | 'topic';
  data: Record<string, unknown>;
  raw: unknown;
};

export type EventRejectionReason =
  'not-json' | 'unknown-envelope' | 'invalid-envelope' | 'invalid-data' | 'foreign-org';

export type NormalizeResult =
  | { ok: true; event: NormalizedEvent | SystemEvent }
  | { ok: false; reason: EventRejectionReason; detail: string; raw: unknown };

function reject(reason: EventRejectionReason, detail: string, raw: unknown): NormalizeResult {
  return { ok: false, reason, detail, raw };
}

function issuesText(error: z.core.$ZodError): string {
  return error.issues
    .map((issue) => `${issue.path.join('.') || '(root)'}: ${issue.message}`)
    .join('; ');
}

type Common = {
  id: string | undefined;
  type: string;
  version: number | undefined;
  orgId: string | undefined;
  occurredAt: string | undefined;
  correlationId: string | null | undefined;
  sequence: number | null;
  envelope: 'mvp' | 'topic';
  data: Record<string, unknown>;
};

function readEnvelope(value: unknown): Common | { error: EventRejectionReason; detail: string } {
  if (typeof value !== 'object' || value === null) {
    return { error: 'unknown-envelope', detail: 'not an object' };
  }
  if ('op' in value) {
    const parsed = TopicEnvelopeSchema.safeParse(value);
    if (!parsed.success) return { error: 'invalid-envelope', detail: issuesText(parsed.error) };
    const e = parsed.data;
    return {
      id: e.id,
      type: e.subject,
      version: e.version,
      orgId: e.orgId,
      occurredAt: e.occurredAt,
      correlationId: e.correlationId,
      sequence: e.sequence ?? null,
      envelope: 'topic',
      data: e.data ?? {},
    };
  }
  if ('type' in value) {
    const parsed = MvpEnvelopeSchema.safeParse(value);
    if (!parsed.success) {
      // Some deployments send the legacy connection signal as a bare type.
      if (value.type === LEGACY_CONNECTED) {
        return { ...emptyCommon('mvp'), type: 'system.connected' };
      }
      return { error: 'invalid-envelope', detail: issuesText(parsed.error) };
    }
    const e = parsed.data;
    return {
      id: e.eventId,
      type: e.event,
      version: e.version,
      orgId: e.orgId,
      occurredAt: e.occurredAt,
      correlationId: e.correlationId,
      sequence: null,
      envelope: 'mvp',
      data: e.data ?? {},
    };
  }
  return { error: 'unknown-envelope', detail: 'neither an MVP (type) nor a topic (op) envelope' };
}

function emptyCommon(envelope: 'mvp' | 'topic'): Common {
  return {
    id: undefined,
    type: '',
    version: undefined,
    orgId: undefined,
    occurredAt: undefined,
    correlationId: undefined,
    sequence: null,
    envelope,
    data: {},
  };
}

function isSystemType(type: string): type is SystemEventType {
  return (SYSTEM_EVENT_TYPES as readonly string[]).includes(type);
}

function isKnownType(type: string): type is EventType {
  return (EVENT_TYPES as readonly string[]).includes(type);
}

/**
 * Normalizes one frame of the stream (a JSON string or a parsed value) in either envelope.
 * Business events must carry id, orgId, occurredAt and data valid for their kind; events of
 * kinds this version does not know pass with their data untouched (the schema evolves
 * additively). With `expectedOrgId`, an event of another organization is rejected.
 */
export function normalizeEvent(
  input: unknown,
  options: { expectedOrgId?: string } = {},
): NormalizeResult {
  let raw: unknown = input;
  if (typeof input === 'string') {
    try {
      raw = JSON.parse(input);
    } catch {
      return reject('not-json', 'frame is not valid JSON', input);
    }
  }
  const common = readEnvelope(raw);
  if ('error' in common) return reject(common.error, common.detail, raw);

  const type = common.type === LEGACY_CONNECTED ? 'system.connected' : common.type;
  if (options.expectedOrgId !== undefined && common.orgId !== undefined) {
    if (common.orgId !== options.expectedOrgId) {
      return reject('foreign-org', `event of organization ${common.orgId}`, raw);
    }
  }
  if (isSystemType(type)) {
    return {
      ok: true,
      event: {
        kind: 'system',
        type,
        orgId: common.orgId ?? null,
        envelope: common.envelope,
        data: common.data,
        raw,
      },
    };
  }

  const missing = (['id', 'orgId', 'occurredAt'] as const).filter((f) => common[f] === undefined);
  if (missing.length > 0) {
    return reject('invalid-envelope', `missing ${missing.join(', ')}`, raw);
  }
  if (options.expectedOrgId !== undefined && common.orgId === undefined) {
    return reject('foreign-org', 'event without orgId', raw);
  }
  if (isKnownType(type)) {
    const parsed = EVENT_DATA_SCHEMAS[type].safeParse(common.data);
    if (!parsed.success) return reject('invalid-data', issuesText(parsed.error), raw);
  }
  return {
    ok: true,
    event: {
      kind: 'business',
      id: common.id ?? '',
      type,
      version: common.version ?? 1,
      orgId: common.orgId ?? '',
      occurredAt: common.occurredAt ?? '',
      correlationId: common.correlationId ?? null,
      sequence: common.sequence,
      envelope: common.envelope,
      data: common.data,
      raw,
    },
  };
}

/** A set of recently seen ids with a fixed capacity; the oldest id is forgotten first. */
export class BoundedIdSet {
  private readonly ids = new Set<string>();

  constructor(private readonly capacity: number) {
    if (!Number.isInteger(capacity) || capacity < 1) throw new RangeError('capacity must be >= 1');
  }

  /** Records the id; returns true when it was not seen before (within the capacity window). */
  addIfNew(id: string): boolean {
    if (this.ids.has(id)) return false;
    this.ids.add(id);
    if (this.ids.size > this.capacity) {
      const oldest = this.ids.values().next();
      if (!oldest.done) this.ids.delete(oldest.value);
    }
    return true;
  }

  has(id: string): boolean {
    return this.ids.has(id);
  }

  get size(): number {
    return this.ids.size;
  }
}

export function eventFamily(type: string): string {
  return type.split('.')[0] ?? type;
}

function str(data: Record<string, unknown>, key: string): string | null {
  const value = data[key];
  return typeof value === 'string' && value.length > 0 ? value : null;
}

/**
 * REST paths an event makes stale, per the interface's reconciliation table. List paths
 * (no id) mean "every list of that resource". Consumers map these to their cache keys.
 */
export function resourcePathsFor(event: Pick<NormalizedEvent, 'type' | 'data'>): string[] {
  const { data } = event;
  const paths = new Set<string>();
  const account = (id: string | null) => {
    if (!id) return;
    paths.add(`/api/v1/ledger/accounts/${id}`);
  };
  const balances = (walletId: string | null, accountId: string | null) => {
    if (walletId) paths.add(`/api/v1/wallets/${walletId}/balances`);
    if (accountId) {
      paths.add(`/api/v1/ledger/accounts/${accountId}/balances`);
      paths.add(`/api/v1/ledger/accounts/${accountId}/transactions`);
      account(accountId);
    }
  };
  const transaction = (id: string | null) => {
    if (id) paths.add(`/api/v1/transactions/${id}`);
  };

  switch (eventFamily(event.type)) {
    case 'account':
      paths.add('/api/v1/ledger/accounts');
      account(str(data, 'accountId'));
      break;
    case 'wallet': {
      paths.add('/api/v1/wallets');
      const walletId = str(data, 'walletId');
      const accountId = str(data, 'accountId');
      if (walletId) paths.add(`/api/v1/wallets/${walletId}`);
      if (accountId) {
        paths.add(`/api/v1/ledger/accounts/${accountId}/wallets`);
        account(accountId);
      }
      break;
    }
    case 'transaction':
      paths.add('/api/v1/transactions');
      transaction(str(data, 'transactionId'));
      transaction(str(data, 'sourceTransactionId'));
      transaction(str(data, 'destinationTransactionId'));
      balances(str(data, 'walletId'), str(data, 'accountId'));
      balances(str(data, 'destinationWalletId'), str(data, 'destinationAccountId'));
      break;
    case 'deposit':
      paths.add('/api/v1/transactions');
      transaction(str(data, 'transactionId'));
      balances(str(data, 'walletId'), str(data, 'accountId'));
      break;
    default:
      break;
  }
  return [...paths];
}
