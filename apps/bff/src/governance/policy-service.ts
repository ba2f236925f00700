import { DryRunRequestSchema, type Policy, type PolicyDecision } from '@settlement/protocol';
import { HttpError } from '../errors';
import type { Session } from '../store/sessions';
import type { GovernanceContext } from './context';
import {
  parsePolicyDocument,
  referencesOf,
  validatePolicy,
  type PolicyProblem,
} from './policy-engine';

function invalid(problems: PolicyProblem[]): HttpError {
  return new HttpError(
    'VALIDATION_ERROR',
    `The policy is not valid: ${problems.map((p) => p.message).join('; ')}`,
    problems,
  );
}

export type PolicyService = ReturnType<typeof createPolicyService>;

/** Reading, versioning and dry-running the withdrawal policy. */
export function createPolicyService(ctx: GovernanceContext) {
  return {
    current: (): Promise<Policy> => ctx.currentPolicy(),
    versions: (): Promise<Policy[]> => ctx.policies.versions(),

    /** Validates the whole document (schema, references, reachability) and stores a version. */
    async save(body: unknown, session: Session): Promise<Policy> {
      const parsed = parsePolicyDocument(body);
      if (!parsed.ok) throw invalid(parsed.problems);
      const doc = parsed.doc;
      const refs = referencesOf(doc);
      const [assets, accounts, wallets] = await Promise.all([
        ctx.facts.assets(session.username),
        Promise.all(
          refs.accountIds.map(async (id) =>
            (await ctx.facts.accountExists(id, session.username)) ? id : null,
          ),
        ),
        Promise.all(
          refs.walletIds.map(async (id) =>
            (await ctx.facts.wallet(id, session.username)) ? id : null,
          ),
        ),
      ]);
      const known = (ids: (string | null)[]) =>
        new Set(ids.filter((id): id is string => id !== null));
      const problems = validatePolicy(doc, {
        assets: new Set(assets.map((a) => a.asset)),
        accountIds: known(accounts),
        walletIds: known(wallets),
      });
      if (problems.length > 0) throw invalid(problems);
      const previous = await ctx.currentPolicy();
      const policy = await ctx.policies.save(doc, session.username);
      await ctx.audit({
        operator: session.username,
        action: 'policy.update',
        outcome: 'succeeded',
        resourceId: `policy-v${policy.version}`,
        detail: `version ${previous.version} -> ${policy.version}: ${doc.rules.length} rules, ${doc.limits.length} limits`,
      });
      ctx.notify('policy', ['/bff/policy', '/bff/policy/versions']);
      return policy;
    },

    /** What the policy would do with this withdrawal, and why. Read-only. */
    async dryRun(body: unknown, session: Session): Promise<PolicyDecision> {
      const parsed = DryRunRequestSchema.safeParse(body);
      if (!parsed.success) {
        throw new HttpError(
          'VALIDATION_ERROR',
          parsed.error.issues.map((i) => `${i.path.join('.') || 'body'}: ${i.message}`).join('; '),
        );
      }
      const { decision } = await ctx.judge({ ...parsed.data, operator: session.username });
      return decision;
    },
  };
}
