import { AuditPageSchema, type AuditPage } from '@settlement/protocol';

/** Test support: audit pages as GET /bff/audit answers them, parsed by the shared contract. */
export function auditPageOf(input: {
  page: number;
  limit?: number;
  snapshotAt: string;
  total: number;
  operators?: string[];
}): AuditPage {
  const limit = input.limit ?? 50;
  const first = (input.page - 1) * limit;
  const count = Math.max(0, Math.min(limit, input.total - first));
  const operators = input.operators ?? ['treasury', 'admin'];
  return AuditPageSchema.parse({
    page: input.page,
    limit,
    snapshotAt: input.snapshotAt,
    total: input.total,
    items: Array.from({ length: count }, (_, index) => {
      const id = input.total - first - index;
      return {
        id,
        at: new Date(Date.parse(input.snapshotAt) - index * 1000).toISOString(),
        operator: operators[id % operators.length] ?? null,
        action: id % 2 === 0 ? 'withdrawal.create' : 'wallet.create',
        outcome: 'accepted',
        operationId: `op-${id}`,
        idempotencyKey: null,
        upstreamRequestId: id === input.total ? 'up-req-1' : null,
        correlationId: `corr-${id}`,
        resourceId: null,
        detail: null,
      };
    }),
  });
}
