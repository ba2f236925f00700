import { describe, expect, it } from 'vitest';
import { z } from 'zod/mini';
import * as protocol from './index';

/**
 * Composite schemas whose consumers read their structure (`.shape`, `.extend`, `.options`...),
 * which a `z.lazy` does not offer: they are built when the package loads.
 */
const READ_FOR_THEIR_SHAPE = new Set([
  'AccountSchema',
  'AuditItemSchema',
  'CreateAccountRequestSchema',
  'CreateTransactionRequestSchema',
  'NewAddressBookEntrySchema',
  'PolicyDecisionSchema',
  'PolicyDocumentSchema',
  'SavedViewSchema',
]);

const COMPOSITE_TYPES = new Set(['object', 'union', 'array', 'record', 'tuple', 'intersection']);

/** An object, union, array... or a wrapper of one (optional, default, refine's pipe...). */
function isComposite(schema: z.core.$ZodType): boolean {
  const def = schema._zod.def as {
    type: string;
    innerType?: z.core.$ZodType;
    in?: z.core.$ZodType;
  };
  if (COMPOSITE_TYPES.has(def.type)) return true;
  if (def.type === 'lazy') return false;
  const inner = def.innerType ?? def.in;
  return inner !== undefined && isComposite(inner);
}

const exportedSchemas = Object.entries(protocol as Record<string, unknown>).filter(
  (entry): entry is [string, z.core.$ZodType] => entry[1] instanceof z.core.$ZodType,
);

describe('the protocol schemas (decision 008)', () => {
  it('build no object, union or array when the package loads: each is built when it first parses', () => {
    const builtOnLoad = exportedSchemas
      .filter(([name, schema]) => !READ_FOR_THEIR_SHAPE.has(name) && isComposite(schema))
      .map(([name]) => name);
    expect(builtOnLoad).toEqual([]);
  });

  it('keep eager only the schemas read for their shape, each of which is exported', () => {
    const exported = new Set(exportedSchemas.map(([name]) => name));
    expect([...READ_FOR_THEIR_SHAPE].filter((name) => !exported.has(name))).toEqual([]);
  });

  it('parse through the lazy wrapper as the schema it builds', () => {
    const parsed = protocol.AssetTotalSchema.safeParse({
      asset: 'TRX',
      chain: 'tron:nile',
      postedAtomic: '12',
      reservedAtomic: '0',
      availableAtomic: '12',
      walletCount: 1,
    });
    expect(parsed.success).toBe(true);
    const refused = protocol.AssetTotalSchema.safeParse({ asset: 'TRX', chain: 'tron:moon' });
    expect(refused.error?.issues.map((issue) => issue.path.join('.'))).toEqual(
      expect.arrayContaining(['chain', 'postedAtomic', 'walletCount']),
    );
  });
});
