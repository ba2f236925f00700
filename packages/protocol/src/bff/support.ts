import { z } from 'zod/mini';
import { TimestampSchema } from '../schemas/common';
import { TransactionSchema } from '../schemas/transaction';
import { WalletSchema } from '../schemas/wallet';

/**
 * The BFF's support tools (DESIGN.md "Support tools"): search, the one timeline per id, the
 * explanation of a failed upstream call, the audit log page and saved views. The upstream
 * interface defines none of these; the BFF types its answers by them and the console parses
 * them from here.
 */

const nullableString = z.nullable(z.string());

/** What the query string turned out to be (several kinds may match one string). */
export const SUPPORT_MATCH_KINDS = [
  'eventId',
  'transactionId',
  'clientReference',
  'correlationId',
  'requestId',
  'x-request-id',
  'idempotencyKey',
  'operationId',
  'txHash',
  'walletAddress',
  'walletId',
  'accountId',
  'withdrawalRequestId',
] as const;
export const SupportMatchKindSchema = z.enum(SUPPORT_MATCH_KINDS);
export type SupportMatchKind = z.infer<typeof SupportMatchKindSchema>;

/** One upstream call (one attempt) from the BFF's request log. */
export const SupportRequestSchema = z.lazy(() =>
  z.object({
    at: TimestampSchema,
    operator: nullableString,
    operation: z.string(),
    operationId: nullableString,
    method: z.string(),
    path: z.string(),
    attempt: z.int().check(z.positive()),
    status: z.nullable(z.int()),
    durationMs: z.int().check(z.nonnegative()),
    /** The x-request-id the BFF sent (kept as `requestIdSent` too for older readers). */
    requestId: z.string(),
    requestIdSent: z.string(),
    upstreamRequestId: nullableString,
    correlationId: nullableString,
    idempotencyKey: nullableString,
    error: nullableString,
  }),
);
export type SupportRequest = z.infer<typeof SupportRequestSchema>;

/** One operator action from the audit log. */
export const AuditItemSchema = z.object({
  /** Stable row id: the audit log's own order. */
  id: z.int().check(z.positive()),
  at: TimestampSchema,
  operator: nullableString,
  action: z.string(),
  outcome: z.string(),
  operationId: nullableString,
  idempotencyKey: nullableString,
  upstreamRequestId: nullableString,
  correlationId: nullableString,
  resourceId: nullableString,
  detail: nullableString,
});
export type AuditItem = z.infer<typeof AuditItemSchema>;

export const SupportEventSchema = z.lazy(() =>
  z.object({
    id: z.string(),
    type: z.string(),
    occurredAt: z.string(),
    correlationId: nullableString,
    sequence: z.nullable(z.int()),
    orgId: z.string(),
    transactionId: nullableString,
    walletId: nullableString,
    accountId: nullableString,
    txHash: nullableString,
    data: z.record(z.string(), z.unknown()),
  }),
);
export type SupportEvent = z.infer<typeof SupportEventSchema>;

/** An idempotent operation from the BFF's journal. */
export const SupportOperationSchema = z.lazy(() =>
  z.object({
    operationId: z.string(),
    operation: z.string(),
    operator: z.string(),
    state: z.string(),
    status: z.nullable(z.int()),
    idempotencyKey: z.string(),
    clientReference: nullableString,
    upstreamRequestId: nullableString,
    correlationId: nullableString,
    createdAt: TimestampSchema,
  }),
);
export type SupportOperation = z.infer<typeof SupportOperationSchema>;

/** `GET /bff/support/search?q=`; a section the answer leaves out reads as empty. */
export const SupportSearchResultSchema = z.lazy(() =>
  z.object({
    query: z.string(),
    kinds: z._default(z.array(SupportMatchKindSchema), []),
    transactions: z._default(z.array(TransactionSchema), []),
    wallets: z._default(z.array(WalletSchema), []),
    events: z._default(z.array(SupportEventSchema), []),
    requests: z._default(z.array(SupportRequestSchema), []),
    actions: z._default(z.array(z.omit(AuditItemSchema, { id: true })), []),
    operations: z._default(z.array(SupportOperationSchema), []),
  }),
);
export type SupportSearchResult = z.infer<typeof SupportSearchResultSchema>;

// --- One timeline per id -------------------------------------------------------------------

export const TIMELINE_KINDS = [
  'operator-action',
  'upstream-call',
  'approval',
  'event',
  'balance-effect',
  'chain-confirmation',
] as const;
export const TimelineKindSchema = z.enum(TIMELINE_KINDS);
export type TimelineKind = z.infer<typeof TimelineKindSchema>;

/**
 * The ids a line carries, each one copyable and each one a new timeline query. Only the ids
 * that apply are present.
 */
export const TimelineIdsSchema = z.lazy(() =>
  z.partial(
    z.object({
      correlationId: z.string(),
      requestId: z.string(),
      upstreamRequestId: z.string(),
      transactionId: z.string(),
      clientReference: z.string(),
      txHash: z.string(),
      operationId: z.string(),
      idempotencyKey: z.string(),
      eventId: z.string(),
      walletId: z.string(),
      accountId: z.string(),
      address: z.string(),
      withdrawalRequestId: z.string(),
    }),
  ),
);
export type TimelineIds = z.infer<typeof TimelineIdsSchema>;

const lineBase = { at: TimestampSchema, title: z.string(), ids: TimelineIdsSchema };

export const TimelineItemSchema = z.lazy(() =>
  z.discriminatedUnion('kind', [
    z.object({
      ...lineBase,
      kind: z.literal('operator-action'),
      operator: nullableString,
      action: z.string(),
      outcome: z.string(),
      detail: nullableString,
    }),
    z.object({
      ...lineBase,
      kind: z.literal('upstream-call'),
      operator: nullableString,
      operation: z.string(),
      method: z.string(),
      path: z.string(),
      attempt: z.int().check(z.positive()),
      status: z.nullable(z.int()),
      durationMs: z.int().check(z.nonnegative()),
      error: nullableString,
      /** A failed call can be explained: GET /bff/support/requests/{requestId}/explanation. */
      isFailure: z.boolean(),
    }),
    z.object({
      ...lineBase,
      kind: z.literal('approval'),
      /** created, approved, rejected, submitted, ... of a withdrawal request. */
      step: z.string(),
      operator: nullableString,
      status: z.string(),
    }),
    z.object({
      ...lineBase,
      kind: z.literal('event'),
      type: z.string(),
      /** Which envelope the upstream delivered it in; null when not recognised. */
      envelope: z.nullable(z.enum(['mvp', 'topic'])),
      sequence: z.nullable(z.int()),
      /** Delivery is at least once: redeliveries of this id were dropped, the line is the one kept. */
      dedupe: z.literal('kept-first-delivery'),
      status: nullableString,
    }),
    z.object({
      ...lineBase,
      kind: z.literal('balance-effect'),
      effect: z.string(),
      asset: z.string(),
      postedDeltaAtomic: z.string(),
      reservedDeltaAtomic: z.string(),
    }),
    z.object({
      ...lineBase,
      kind: z.literal('chain-confirmation'),
      blockNumber: z.nullable(z.int()),
      confirmations: z.int().check(z.nonnegative()),
      requiredConfirmations: z.int().check(z.positive()),
      status: z.string(),
    }),
  ]),
);
export type TimelineItem = z.infer<typeof TimelineItemSchema>;

/** `GET /bff/support/timeline?q=`: every line that belongs to `q`, ordered by time. */
export const TimelineSchema = z.lazy(() =>
  z.object({
    query: z.string(),
    /** What `q` matched (see SUPPORT_MATCH_KINDS). */
    matched: z.array(SupportMatchKindSchema),
    /** The kinds of lines present. */
    kinds: z.array(TimelineKindSchema),
    items: z.array(TimelineItemSchema),
    /** True when a bound cut the gathering short (the newest lines are then missing). */
    isTruncated: z.boolean(),
  }),
);
export type Timeline = z.infer<typeof TimelineSchema>;

// --- Why did this request fail -------------------------------------------------------------

/**
 * The non-secret lines of the canonical string the BFF signed for one attempt. The signature,
 * key material and secrets are never recorded.
 */
export const SignedLinesSchema = z.lazy(() =>
  z.object({
    method: z.string(),
    target: z.string(),
    /** Lowercase hex SHA-256 declared in X-Api-Body-Hash; null when no body was sent. */
    bodyHash: nullableString,
    timestamp: z.string(),
    nonce: z.string(),
    keyId: z.string(),
  }),
);
export type SignedLines = z.infer<typeof SignedLinesSchema>;

export const EXPLANATION_CAUSES = [
  'timestamp-skew',
  'nonce-reused',
  'body-hash-mismatch',
  'unknown-key',
  'signature-refused',
  'missing-scope',
  'idempotency-conflict',
  'validation',
  'domain-rule',
  'other',
  'not-failed',
] as const;
export const ExplanationCauseSchema = z.enum(EXPLANATION_CAUSES);
export type ExplanationCause = z.infer<typeof ExplanationCauseSchema>;

export const FINGERPRINT_PARTS = ['method', 'target', 'bodyHash'] as const;

export const RequestExplanationSchema = z.lazy(() =>
  z.object({
    requestId: z.string(),
    at: TimestampSchema,
    operation: z.string(),
    method: z.string(),
    path: z.string(),
    attempt: z.int().check(z.positive()),
    status: z.nullable(z.int()),
    /** The upstream's error code, when it sent an envelope. */
    code: nullableString,
    cause: ExplanationCauseSchema,
    /** The reason in words, for a person. */
    summary: z.string(),
    /** The evidence, one finding per line. */
    findings: z.array(z.string()),
    signed: z.nullable(SignedLinesSchema),
    skew: z.nullable(
      z.object({
        /** Our X-Api-Timestamp minus the upstream's clock (its Date header), in seconds. */
        seconds: z.int(),
        allowedSeconds: z.int(),
      }),
    ),
    nonce: z.nullable(
      z.object({
        firstRequestId: z.string(),
        firstAt: TimestampSchema,
        retentionSeconds: z.number(),
      }),
    ),
    bodyHash: z.nullable(z.object({ declared: nullableString, ofBytesSent: nullableString })),
    key: z.nullable(
      z.object({
        keyId: z.string(),
        isConfigured: z.boolean(),
        scopes: z.array(z.string()),
        requiredScope: nullableString,
      }),
    ),
    idempotency: z.nullable(
      z.object({
        key: z.string(),
        firstRequestId: z.string(),
        firstAt: TimestampSchema,
        differs: z.array(z.enum(FINGERPRINT_PARTS)),
        first: z.object({ method: z.string(), target: z.string(), bodyHash: nullableString }),
        this: z.object({ method: z.string(), target: z.string(), bodyHash: nullableString }),
      }),
    ),
    validation: z.nullable(z.object({ field: nullableString, rule: z.string() })),
  }),
);
export type RequestExplanation = z.infer<typeof RequestExplanationSchema>;

// --- Audit log -----------------------------------------------------------------------------

export const AUDIT_LIMIT_DEFAULT = 50;
export const AUDIT_LIMIT_MAX = 200;

/** `GET /bff/audit` query: page from 1; snapshotAt (ISO) from the first page, sent back unchanged. */
export const AuditQuerySchema = z.lazy(() =>
  z.object({
    page: z._default(z.coerce.number().check(z.int(), z.gte(1)), 1),
    limit: z._default(
      z.coerce.number().check(z.int(), z.gte(1), z.lte(AUDIT_LIMIT_MAX)),
      AUDIT_LIMIT_DEFAULT,
    ),
    snapshotAt: z.optional(TimestampSchema),
    operator: z.optional(z.string().check(z.minLength(1), z.maxLength(64))),
    action: z.optional(z.string().check(z.minLength(1), z.maxLength(64))),
    from: z.optional(TimestampSchema),
    to: z.optional(TimestampSchema),
  }),
);
export type AuditQuery = z.infer<typeof AuditQuerySchema>;

export const AuditPageSchema = z.lazy(() =>
  z.object({
    items: z.array(AuditItemSchema),
    page: z.int().check(z.positive()),
    limit: z.int().check(z.positive()),
    /** Rows recorded after this instant never appear on any page of this listing. */
    snapshotAt: TimestampSchema,
    total: z.int().check(z.nonnegative()),
  }),
);
export type AuditPage = z.infer<typeof AuditPageSchema>;

// --- Saved views: GET/POST /bff/saved-views, DELETE /bff/saved-views/{id} ------------------

export const SAVED_VIEW_SUBJECTS = ['transactions', 'wallets', 'accounts', 'events'] as const;

export const SavedViewSchema = z.object({
  id: z.string(),
  name: z.string().check(z.minLength(1), z.maxLength(80)),
  subject: z.enum(SAVED_VIEW_SUBJECTS),
  /** The list filters as query parameters (the same names the list URL carries). */
  filters: z.record(z.string(), z.string()),
  visibility: z.enum(['personal', 'organization']),
  owner: z.string(),
  createdAt: TimestampSchema,
  updatedAt: TimestampSchema,
});
export type SavedView = z.infer<typeof SavedViewSchema>;

/** A list's filters are a handful of short query parameters; more is not a filter set. */
export const SAVED_VIEW_FILTERS_MAX = 20;
const FILTER_NAME = /^[A-Za-z][A-Za-z0-9]{0,39}$/;

/**
 * POST body. Saving a name the operator already has for that subject replaces its filters and
 * visibility (one view per name), so "save" after a change of filters needs no second route.
 */
export const SavedViewInputSchema = z.lazy(() =>
  z.extend(
    z.pick(SavedViewSchema, {
      name: true,
      subject: true,
      visibility: true,
    }),
    {
      name: z.string().check(z.trim(), z.minLength(1), z.maxLength(80)),
      filters: z
        .record(
          z.string().check(z.regex(FILTER_NAME, 'a filter name is 1-40 letters or digits')),
          z.string().check(z.maxLength(256)),
        )
        .check(
          z.refine((filters) => Object.keys(filters).length <= SAVED_VIEW_FILTERS_MAX, {
            message: `at most ${String(SAVED_VIEW_FILTERS_MAX)} filters`,
          }),
        ),
    },
  ),
);
export type SavedViewInput = z.infer<typeof SavedViewInputSchema>;

/** GET query: the views of one list (all of them without `subject`). */
export const SavedViewQuerySchema = z.lazy(() =>
  z.object({ subject: z.optional(z.enum(SAVED_VIEW_SUBJECTS)) }),
);
export type SavedViewQuery = z.infer<typeof SavedViewQuerySchema>;

/** The operator's own views and those shared with the organization, by name. */
export const SavedViewListSchema = z.lazy(() => z.object({ items: z.array(SavedViewSchema) }));
export type SavedViewList = z.infer<typeof SavedViewListSchema>;

// --- Exports -------------------------------------------------------------------------------

export const EXPORT_SUBJECTS = ['transactions', 'wallets', 'accounts', 'audit'] as const;
export type ExportSubject = (typeof EXPORT_SUBJECTS)[number];
