import type { Policy } from '@settlement/protocol';
import { Time } from '../../../components/ui/time';

/**
 * Rules added, removed and changed from one version to the next, by rule id. A rule that left
 * and came back under the same name with another id is one change, not an "added" and a
 * "removed" of the same name, which read as a contradiction.
 */
export function ruleChanges(previous: Policy | undefined, next: Policy): string[] {
  if (!previous) return ['First version.'];
  const before = new Map(previous.rules.map((rule) => [rule.id, JSON.stringify(rule)]));
  const after = new Map(next.rules.map((rule) => [rule.id, JSON.stringify(rule)]));
  const removed = previous.rules.filter((rule) => !after.has(rule.id));
  const changes: string[] = [];
  for (const rule of next.rules) {
    const old = before.get(rule.id);
    if (old === undefined) {
      const renamed = removed.findIndex((gone) => gone.name === rule.name);
      const gone = renamed === -1 ? undefined : removed.splice(renamed, 1)[0];
      changes.push(
        gone
          ? `Changed rule "${rule.name}" (id ${gone.id} is now ${rule.id}).`
          : `Added rule "${rule.name}".`,
      );
    } else if (old !== after.get(rule.id)) changes.push(`Changed rule "${rule.name}".`);
  }
  for (const rule of removed) changes.push(`Removed rule "${rule.name}".`);
  const order = (policy: Policy) => policy.rules.map((rule) => rule.id).join(',');
  if (changes.length === 0 && order(previous) !== order(next)) changes.push('Reordered rules.');
  if (JSON.stringify(previous.limits) !== JSON.stringify(next.limits))
    changes.push('Changed limits.');
  if (JSON.stringify(previous.settings) !== JSON.stringify(next.settings))
    changes.push('Changed settings.');
  return changes.length > 0 ? changes : ['No change.'];
}

/** Versions newest first, each with who stored it, when, and what changed. */
export function PolicyHistory({ versions }: { versions: readonly Policy[] }) {
  return (
    <ol aria-label="Policy versions" className="divide-y divide-slate-100 text-sm">
      {versions.map((version, index) => (
        <li key={version.version} className="px-4 py-3">
          <p>
            <span className="font-semibold">Version {version.version}</span> by{' '}
            <span className="font-medium">{version.createdBy}</span>,{' '}
            <Time value={version.createdAt} />
          </p>
          <ul className="mt-1 list-disc pl-5 text-slate-700">
            {ruleChanges(versions[index + 1], version).map((change) => (
              <li key={change}>{change}</li>
            ))}
          </ul>
        </li>
      ))}
    </ol>
  );
}
