import type { Services } from '../services/services';
import type { AuditAction } from '../store/logs';

/** One audit row of an operator-security action (never a secret in `detail`). */
export async function auditSecurity(
  services: Pick<Services, 'logs' | 'now'>,
  entry: {
    operator: string;
    action: AuditAction;
    outcome: string;
    resourceId?: string | null;
    detail?: string | null;
  },
): Promise<void> {
  await services.logs.audit({
    at: services.now(),
    operator: entry.operator.slice(0, 128),
    action: entry.action,
    outcome: entry.outcome,
    operationId: null,
    idempotencyKey: null,
    upstreamRequestId: null,
    correlationId: null,
    resourceId: entry.resourceId ?? null,
    detail: entry.detail ?? null,
  });
}
