import { AtomicAmountSchema, atomicToDisplay } from '@settlement/protocol';

/**
 * A one-line summary of what happened. Amounts in the asset's units (the catalog's decimals,
 * exact); in atomic units, said so, only when the asset is unknown.
 */
export function eventSummary(
  event: { data: Record<string, unknown> },
  decimalsFor: (asset: string) => number | null = () => null,
): string {
  const { data } = event;
  const parts: string[] = [];
  const asset = typeof data.asset === 'string' ? data.asset : null;
  const amount = data.amountAtomic;
  if (typeof data.status === 'string' && data.status) parts.push(data.status);
  if (typeof amount === 'string' && AtomicAmountSchema.safeParse(amount).success) {
    const decimals = asset ? decimalsFor(asset) : null;
    parts.push(
      decimals === null
        ? `${amount} atomic${asset ? ` ${asset}` : ''}`
        : `${atomicToDisplay(amount, decimals, { grouping: true })} ${asset ?? ''}`.trim(),
    );
  } else if (asset) {
    parts.push(asset);
  }
  for (const key of ['name', 'address', 'stage'] as const) {
    const value = data[key];
    if (typeof value === 'string' && value) parts.push(value);
  }
  const confirmations = data.confirmations;
  if (typeof confirmations === 'number') parts.push(`${confirmations} conf.`);
  return parts.join(' · ');
}
