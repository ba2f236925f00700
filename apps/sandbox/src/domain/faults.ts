import { z } from 'zod';
import { HttpError } from '../errors';
import type { Statement } from 'better-sqlite3';
import type { Db } from '../store/db';

const ENVELOPES = ['mvp', 'topic', 'both'] as const;
const FORCED_OUTCOMES = ['CONFIRMED', 'FAILED', 'FAILED_ON_CHAIN'] as const;

/** The fault switches of DESIGN.md, resolved to their values (defaults: no fault). */
export type Faults = {
  upstreamUnavailableRate: number;
  latencyMs: number;
  duplicateEventRate: number;
  dropSocketEveryMs: number | null;
  legacyConnectedEvent: boolean;
  envelope: (typeof ENVELOPES)[number];
  withdrawalsBlocked: boolean;
  walletPlanLimit: number | null;
  nextTransactionOutcome: (typeof FORCED_OUTCOMES)[number] | null;
};

export const DEFAULT_FAULTS: Faults = {
  upstreamUnavailableRate: 0,
  latencyMs: 0,
  duplicateEventRate: 0,
  dropSocketEveryMs: null,
  legacyConnectedEvent: false,
  envelope: 'mvp',
  withdrawalsBlocked: false,
  walletPlanLimit: null,
  nextTransactionOutcome: null,
};

const rate = z.number().min(0).max(1);

/** A PUT body: fields left out keep their value; null restores the default. */
export const FaultsPatchSchema = z.strictObject({
  upstreamUnavailableRate: rate.nullable().optional(),
  latencyMs: z.number().int().min(0).max(60_000).nullable().optional(),
  duplicateEventRate: rate.nullable().optional(),
  dropSocketEveryMs: z.number().int().min(50).max(86_400_000).nullable().optional(),
  legacyConnectedEvent: z.boolean().nullable().optional(),
  envelope: z.enum(ENVELOPES).nullable().optional(),
  withdrawalsBlocked: z.boolean().nullable().optional(),
  walletPlanLimit: z.number().int().min(0).max(1_000_000).nullable().optional(),
  nextTransactionOutcome: z.enum(FORCED_OUTCOMES).nullable().optional(),
});
export type FaultsPatch = z.infer<typeof FaultsPatchSchema>;

/** What is stored: only the switches that are set (a row read back is validated). */
const StoredFaultsSchema = FaultsPatchSchema.partial();

/** Read on every /api/v1 request: prepared once per connection. */
const selects = new WeakMap<Db, Statement<[string], { faults: string }>>();

function readStored(db: Db, orgId: string): string | null {
  let select = selects.get(db);
  if (!select) {
    select = db.prepare<[string], { faults: string }>('SELECT faults FROM orgs WHERE id = ?');
    selects.set(db, select);
  }
  return select.get(orgId)?.faults ?? null;
}

function parseStored(text: string): Record<string, unknown> {
  const parsed = StoredFaultsSchema.safeParse(JSON.parse(text));
  return parsed.success ? parsed.data : {};
}

function resolve(text: string): Faults {
  const faults: Faults = { ...DEFAULT_FAULTS };
  for (const [key, value] of Object.entries(parseStored(text))) {
    if (value !== null && value !== undefined && key in faults) {
      Object.assign(faults, { [key]: value });
    }
  }
  return faults;
}

/**
 * Switches resolved by their stored text: every /api/v1 request and stream poll reads them, and
 * a JSON + zod parse each time was ~1% of a withdrawal's CPU. Keyed by the text read, so a
 * change is seen at once; bounded (a handful of distinct settings exist at a time).
 */
const resolved = new Map<string, Faults>();
const RESOLVED_MAX = 256;

/** The org's fault switches (defaults for an unknown org). Cheap: one primary-key read. */
export function getFaults(db: Db, orgId: string): Faults {
  const text = readStored(db, orgId);
  if (text === null) return { ...DEFAULT_FAULTS };
  let faults = resolved.get(text);
  if (faults === undefined) {
    faults = resolve(text);
    if (resolved.size >= RESOLVED_MAX) resolved.clear();
    resolved.set(text, faults);
  }
  return { ...faults };
}

/** Merges a patch into the org's switches and returns the resolved result. */
export function updateFaults(db: Db, orgId: string, patch: FaultsPatch): Faults {
  return db
    .transaction(() => {
      const text = readStored(db, orgId);
      if (text === null) throw new HttpError('RESOURCE_NOT_FOUND', 'No such organization.');
      const merged: Record<string, unknown> = { ...parseStored(text) };
      for (const [key, value] of Object.entries(patch)) {
        if (value !== undefined) merged[key] = value;
      }
      const next = Object.fromEntries(Object.entries(merged).filter(([, value]) => value !== null));
      db.prepare('UPDATE orgs SET faults = ? WHERE id = ?').run(JSON.stringify(next), orgId);
      return getFaults(db, orgId);
    })
    .immediate();
}
