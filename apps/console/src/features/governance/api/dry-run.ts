import { PolicyDecisionSchema, type DryRunRequest } from '@settlement/protocol';
import { useMutation } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';

/** What the policy would do with a withdrawal, and why (read-only, any operator). */
function dryRun(request: DryRunRequest) {
  return apiRequest('/bff/policy/dry-run', PolicyDecisionSchema, { method: 'POST', body: request });
}

export function useDryRunMutation() {
  return useMutation({ mutationFn: dryRun });
}
