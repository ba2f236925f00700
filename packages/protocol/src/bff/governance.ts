import { z } from 'zod/mini';
import { AtomicAmountSchema } from '../amounts';
import { ChainSchema, Reference128Schema } from '../schemas/common';

/**
 * Withdrawal governance (BFF only; the upstream interface has no such concept): the policy,
 * its dry run, withdrawal requests awaiting approval and the address book. DESIGN.md "Second
 * wave" fixes the routes and the field names; the BFF and the console both read them from here.
 */

const IdSchema = z
  .string()
  .check(
    z.regex(/^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/, 'must be 1-64 letters, digits, ".", "_" or "-"'),
  );
const NameSchema = z.string().check(z.trim(), z.minLength(1), z.maxLength(120));
/** The instant of a governance record, ISO 8601 (the BFF's own clock). */
const InstantSchema = z.string();

export const POLICY_ACTIONS = ['ALLOW', 'REQUIRE_APPROVAL', 'BLOCK'] as const;
export const PolicyActionSchema = z.enum(POLICY_ACTIONS);
export type PolicyAction = z.infer<typeof PolicyActionSchema>;

export const DESTINATION_KINDS = ['ADDRESS_BOOK', 'INTERNAL', 'ANY'] as const;
export const DestinationKindSchema = z.enum(DESTINATION_KINDS);
export type DestinationKind = z.infer<typeof DestinationKindSchema>;

/** Roles that may approve; `support` never approves. */
export const APPROVER_ROLES = ['treasury', 'admin'] as const;
export const ApproverRoleSchema = z.enum(APPROVER_ROLES);
export type ApproverRole = z.infer<typeof ApproverRoleSchema>;

export const ApprovalRequirementSchema = z.lazy(() =>
  z.object({
    count: z.int().check(z.gte(1), z.lte(10)),
    fromRoles: z.array(ApproverRoleSchema).check(z.minLength(1)),
  }),
);
export type ApprovalRequirement = z.infer<typeof ApprovalRequirementSchema>;

export const PolicyMatchSchema = z.lazy(() =>
  z.object({
    assets: z.optional(
      z.array(z.string().check(z.minLength(1), z.maxLength(32))).check(z.minLength(1)),
    ),
    chains: z.optional(z.array(ChainSchema).check(z.minLength(1))),
    accountIds: z.optional(
      z.array(z.string().check(z.minLength(1), z.maxLength(128))).check(z.minLength(1)),
    ),
    walletIds: z.optional(
      z.array(z.string().check(z.minLength(1), z.maxLength(128))).check(z.minLength(1)),
    ),
    destination: z.optional(DestinationKindSchema),
    /** Inclusive lower bound, atomic units. */
    amountAtomicGte: z.optional(AtomicAmountSchema),
    /** Exclusive upper bound, atomic units. */
    amountAtomicLt: z.optional(AtomicAmountSchema),
  }),
);
export type PolicyMatch = z.infer<typeof PolicyMatchSchema>;

export const PolicyRuleSchema = z.lazy(() =>
  z
    .object({
      id: IdSchema,
      name: NameSchema,
      match: z._default(PolicyMatchSchema, {}),
      action: PolicyActionSchema,
      approvals: z.optional(ApprovalRequirementSchema),
    })
    .check(
      z.refine((rule) => rule.action !== 'REQUIRE_APPROVAL' || rule.approvals !== undefined, {
        message: 'REQUIRE_APPROVAL needs approvals {count, fromRoles}',
        path: ['approvals'],
      }),
    ),
);
export type PolicyRule = z.infer<typeof PolicyRuleSchema>;

export const LIMIT_SCOPES = ['WALLET', 'ACCOUNT', 'ORG'] as const;
export const LimitScopeSchema = z.enum(LIMIT_SCOPES);
export type LimitScope = z.infer<typeof LimitScopeSchema>;

export const PolicyLimitSchema = z.lazy(() =>
  z.object({
    id: IdSchema,
    name: NameSchema,
    /** Per wallet, per account or for the whole organization. */
    scope: LimitScopeSchema,
    asset: z.string().check(z.minLength(1), z.maxLength(32)),
    windowHours: z.int().check(z.gte(1), z.lte(24 * 366)),
    maxAtomic: AtomicAmountSchema,
  }),
);
export type PolicyLimit = z.infer<typeof PolicyLimitSchema>;

export const PolicySettingsSchema = z.lazy(() =>
  z.object({
    /** A withdrawal request not fully approved by then expires. */
    requestExpiryHours: z._default(z.int().check(z.gte(1), z.lte(24 * 30)), 24),
  }),
);
export type PolicySettings = z.infer<typeof PolicySettingsSchema>;

/** The body of `PUT /bff/policy`: the whole document; the server assigns the version. */
export const PolicyDocumentSchema = z.object({
  rules: z.array(PolicyRuleSchema).check(z.maxLength(100)),
  limits: z._default(z.array(PolicyLimitSchema).check(z.maxLength(50)), []),
  settings: z._default(PolicySettingsSchema, { requestExpiryHours: 24 }),
});
export type PolicyDocument = z.infer<typeof PolicyDocumentSchema>;
export type PolicyDocumentInput = z.input<typeof PolicyDocumentSchema>;

/** `GET /bff/policy` and each entry of `GET /bff/policy/versions`. */
export const PolicySchema = z.lazy(() =>
  z.extend(PolicyDocumentSchema, {
    /** 0: no policy was ever stored, so everything is blocked (default deny). */
    version: z.int().check(z.gte(0)),
    createdBy: z.string(),
    createdAt: InstantSchema,
  }),
);
export type Policy = z.infer<typeof PolicySchema>;

export const PolicyVersionsSchema = z.lazy(() => z.object({ items: z.array(PolicySchema) }));
export type PolicyVersions = z.infer<typeof PolicyVersionsSchema>;

/** `POST /bff/policy/dry-run`: the fields of a withdrawal that the policy judges. */
export const DryRunRequestSchema = z.lazy(() =>
  z.object({
    walletId: z.string().check(z.minLength(1), z.maxLength(128)),
    asset: z.string().check(z.minLength(1), z.maxLength(32)),
    toAddress: z.string().check(z.minLength(1), z.maxLength(128)),
    amountAtomic: AtomicAmountSchema,
  }),
);
export type DryRunRequest = z.infer<typeof DryRunRequestSchema>;

export const LimitUsageSchema = z.lazy(() =>
  z.object({
    id: z.string(),
    name: z.string(),
    scope: LimitScopeSchema,
    asset: z.string(),
    windowHours: z.int(),
    usedAtomic: AtomicAmountSchema,
    maxAtomic: AtomicAmountSchema,
    /** What is left before this withdrawal (0 when already at or past the maximum). */
    remainingAtomic: AtomicAmountSchema,
    wouldExceed: z.boolean(),
  }),
);
export type LimitUsage = z.infer<typeof LimitUsageSchema>;

export const PolicyDecisionSchema = z.object({
  action: PolicyActionSchema,
  /** The rule that matched; null when none did (default deny). */
  rule: z.nullable(z.object({ id: z.string(), name: z.string() })),
  /** Why each earlier rule did not match, which one did, and any limit that blocks. */
  reasons: z.array(z.string()),
  approvals: z.nullable(ApprovalRequirementSchema),
  limits: z.array(LimitUsageSchema),
  /** The limit that blocks, when one does. */
  blockedByLimit: z.nullable(z.string()),
  destination: z.object({ isAddressBook: z.boolean(), isInternal: z.boolean() }),
  policyVersion: z.int(),
});
export type PolicyDecision = z.infer<typeof PolicyDecisionSchema>;

/** The `details[0]` of a 403 `POLICY_BLOCKED`: the rule or limit that blocks, and why. */
export const PolicyBlockedDetailSchema = z.lazy(() =>
  z.object({
    rule: PolicyDecisionSchema.shape.rule,
    /** The id of the limit that blocks, when a limit does. */
    limit: z.nullable(z.string()),
    policyVersion: z.int(),
    reasons: z.array(z.string()),
  }),
);
export type PolicyBlockedDetail = z.infer<typeof PolicyBlockedDetailSchema>;

export const WITHDRAWAL_REQUEST_STATUSES = [
  'AWAITING_APPROVAL',
  'APPROVED',
  'SUBMITTED',
  'REJECTED',
  'CANCELLED',
  'EXPIRED',
  'FAILED',
] as const;
export const WithdrawalRequestStatusSchema = z.enum(WITHDRAWAL_REQUEST_STATUSES);
export type WithdrawalRequestStatus = z.infer<typeof WithdrawalRequestStatusSchema>;

export const ApprovalSchema = z.lazy(() =>
  z.object({
    operator: z.string(),
    role: z.string(),
    at: InstantSchema,
  }),
);
export type Approval = z.infer<typeof ApprovalSchema>;

export const WithdrawalRequestSchema = z.lazy(() =>
  z.object({
    id: z.string(),
    status: WithdrawalRequestStatusSchema,
    /** The requester's X-Operation-Id: the idempotency key of the one upstream submission. */
    operationId: z.string(),
    requester: z.string(),
    walletId: z.string(),
    accountId: z.string(),
    chain: ChainSchema,
    asset: z.string(),
    toAddress: z.string(),
    amountAtomic: AtomicAmountSchema,
    clientReference: z.nullable(Reference128Schema),
    policyVersion: z.int(),
    decision: PolicyDecisionSchema,
    approvalsRequired: ApprovalRequirementSchema,
    approvals: z.array(ApprovalSchema),
    rejection: z.nullable(
      z.object({ operator: z.string(), reason: z.string(), at: InstantSchema }),
    ),
    transactionId: z.nullable(z.string()),
    correlationId: z.nullable(z.string()),
    failure: z.nullable(z.object({ code: z.string(), message: z.string() })),
    createdAt: InstantSchema,
    updatedAt: InstantSchema,
    expiresAt: InstantSchema,
  }),
);
export type WithdrawalRequest = z.infer<typeof WithdrawalRequestSchema>;

/** `POST /bff/api/v1/transactions` when the policy asks for approvals: 202. */
export const WithdrawalRequestCreatedSchema = z.lazy(() =>
  z.object({
    withdrawalRequest: WithdrawalRequestSchema,
  }),
);

/** `GET /bff/withdrawal-requests` lists the newest this many: a full list may hold more. */
export const WITHDRAWAL_REQUEST_LIST_MAX = 200;

export const WithdrawalRequestListSchema = z.lazy(() =>
  z.object({ items: z.array(WithdrawalRequestSchema) }),
);
export type WithdrawalRequestList = z.infer<typeof WithdrawalRequestListSchema>;

export const RejectRequestSchema = z.lazy(() =>
  z.object({ reason: z.string().check(z.trim(), z.minLength(1), z.maxLength(500)) }),
);

export const ADDRESS_BOOK_STATUSES = ['PENDING_APPROVAL', 'ACTIVE', 'REMOVED'] as const;
export const AddressBookStatusSchema = z.enum(ADDRESS_BOOK_STATUSES);
export type AddressBookStatus = z.infer<typeof AddressBookStatusSchema>;

export const NewAddressBookEntrySchema = z.object({
  chain: ChainSchema,
  address: z.string().check(z.trim(), z.minLength(1), z.maxLength(64)),
  label: z.string().check(z.trim(), z.minLength(1), z.maxLength(120)),
});
export type NewAddressBookEntry = z.infer<typeof NewAddressBookEntrySchema>;

export const AddressBookEntrySchema = z.lazy(() =>
  z.extend(NewAddressBookEntrySchema, {
    id: z.string(),
    status: AddressBookStatusSchema,
    createdBy: z.string(),
    createdAt: InstantSchema,
    approvedBy: z.nullable(z.string()),
    approvedAt: z.nullable(InstantSchema),
    removedBy: z.nullable(z.string()),
    removedAt: z.nullable(InstantSchema),
  }),
);
export type AddressBookEntry = z.infer<typeof AddressBookEntrySchema>;

/**
 * `GET /bff/address-book` lists the newest this many entries: a full list may hold more, which
 * the policy still counts (it looks an address up in the whole book).
 */
export const ADDRESS_BOOK_LIST_MAX = 500;

export const AddressBookListSchema = z.lazy(() =>
  z.object({ items: z.array(AddressBookEntrySchema) }),
);
export type AddressBookList = z.infer<typeof AddressBookListSchema>;

/** Topics of the relay's `change` frames that governance sends. */
export const GOVERNANCE_TOPICS = ['withdrawal-requests', 'address-book', 'policy'] as const;
export type GovernanceTopic = (typeof GOVERNANCE_TOPICS)[number];
