import { CHAINS, type Chain, type MpcStatus } from '@settlement/protocol';
import { timeOrderedId } from '@settlement/protocol/ids';
import type { AppContext, BackgroundService } from '../context';
import { HttpError } from '../errors';
import type { Db } from '../store/db';
import { prepared } from '../store/prepared';
import { isChainEnabled } from './assets';
import { coSignerStatus, requireOrg } from './orgs';

/** Blocks the Co-Signer must be online for before a PROVISIONING key becomes ACTIVE. */
const PROVISIONING_BLOCKS = 2;

type MpcKey = {
  orgId: string;
  keyId: string;
  status: 'PROVISIONING' | 'ACTIVE';
  idempotencyKey: string;
};

type MpcKeyRow = {
  org_id: string;
  key_id: string;
  status: 'PROVISIONING' | 'ACTIVE';
  idempotency_key: string;
};

const mpcKeyOf = prepared<[string], MpcKeyRow>(
  'SELECT org_id, key_id, status, idempotency_key FROM mpc_keys WHERE org_id = ?',
);

function findMpcKey(db: Db, orgId: string): MpcKey | null {
  const row = mpcKeyOf(db).get(orgId);
  return row
    ? {
        orgId: row.org_id,
        keyId: row.key_id,
        status: row.status,
        idempotencyKey: row.idempotency_key,
      }
    : null;
}

/**
 * Creates the org's default MPC key (PROVISIONING). Runs inside the idempotent transaction;
 * a key that already exists came from another idempotency key, which the interface calls a
 * conflicting fingerprint: 400 mpc.errors.IDEMPOTENCY_CONFLICT.
 */
export function initializeMpcKey(
  db: Db,
  orgId: string,
  request: { idempotencyKey: string; correlationId: string; now: Date },
): { orgId: string; keyId: string; keyStatus: 'PROVISIONING' | 'ACTIVE' } {
  const existing = findMpcKey(db, orgId);
  if (existing) {
    throw new HttpError(
      'mpc.errors.IDEMPOTENCY_CONFLICT',
      'The MPC key of this organization was already initialized with another idempotency key.',
    );
  }
  const keyId = `mpckey_${timeOrderedId()}`;
  db.prepare(
    `INSERT INTO mpc_keys (org_id, key_id, status, online_blocks, idempotency_key, correlation_id, created_at)
     VALUES (?, ?, 'PROVISIONING', 0, ?, ?, ?)`,
  ).run(orgId, keyId, request.idempotencyKey, request.correlationId, request.now.toISOString());
  return { orgId, keyId, keyStatus: 'PROVISIONING' };
}

// Run on every block (every 20 ms in the bench): prepared once, not compiled per tick.
const countOnlineBlock = prepared<[]>(
  `UPDATE mpc_keys SET online_blocks = online_blocks + 1
    WHERE status = 'PROVISIONING'
      AND org_id IN (SELECT id FROM orgs WHERE co_signer_online = 1)`,
);
const activateProvisioned = prepared<[string, number]>(
  `UPDATE mpc_keys SET status = 'ACTIVE', activated_at = ?
    WHERE status = 'PROVISIONING' AND online_blocks >= ?`,
);

/** One block of the provisioning clock: keys whose Co-Signer is online advance; offline ones wait. */
export function advanceMpcProvisioning(db: Db, now: Date): number {
  return db
    .transaction(() => {
      countOnlineBlock(db).run();
      return activateProvisioned(db).run(now.toISOString(), PROVISIONING_BLOCKS).changes;
    })
    .immediate();
}

/**
 * One tick of the provisioning clock that never throws: a tick that cannot write now (another
 * process holds the database past the busy timeout) is logged and the next one advances.
 * Thrown from a timer, it would have taken the whole sandbox down.
 */
export function provisionTick(ctx: AppContext): void {
  try {
    advanceMpcProvisioning(ctx.db, new Date(ctx.nowMs()));
  } catch (error) {
    ctx.logger.error({ err: error }, 'MPC provisioning tick failed');
  }
}

export function mpcProvisioner(ctx: AppContext): BackgroundService {
  let timer: NodeJS.Timeout | undefined;
  return {
    name: 'mpc-provisioner',
    start: () => {
      timer = setInterval(() => {
        provisionTick(ctx);
      }, ctx.blockMs);
    },
    stop: () => {
      clearInterval(timer);
    },
  };
}

/** MPC status per DESIGN.md, with each chain's readiness and the reason when not ready. */
export function mpcStatus(db: Db, orgId: string, now: Date): MpcStatus {
  const org = requireOrg(db, orgId);
  const key = findMpcKey(db, orgId);
  const coSigner = coSignerStatus(org, now);
  return {
    orgId,
    keyId: key?.keyId ?? null,
    keyStatus: key?.status ?? null,
    coSigner,
    chains: CHAINS.map((chain) => {
      const reason = notReadyReason(db, orgId, chain, key, coSigner.status);
      return { chain, ready: reason === null, reason };
    }),
  };
}

function notReadyReason(
  db: Db,
  orgId: string,
  chain: Chain,
  key: MpcKey | null,
  coSigner: 'ONLINE' | 'OFFLINE',
): string | null {
  if (!isChainEnabled(db, orgId, chain)) return `${chain} is not enabled for this organization.`;
  if (key === null) return 'The MPC key is not initialized.';
  if (key.status !== 'ACTIVE') return 'The MPC key is still provisioning.';
  if (coSigner !== 'ONLINE') return 'The Co-Signer is offline.';
  return null;
}

/**
 * Whether the org can sign on `chain` now (MPC key ACTIVE, Co-Signer online, chain enabled);
 * the reason when it cannot. Wallet creation and withdrawals check this.
 */
export function signingReadiness(
  db: Db,
  orgId: string,
  chain: Chain,
): { isReady: boolean; reason: string | null } {
  const org = requireOrg(db, orgId);
  const reason = notReadyReason(
    db,
    orgId,
    chain,
    findMpcKey(db, orgId),
    org.isCoSignerOnline ? 'ONLINE' : 'OFFLINE',
  );
  return { isReady: reason === null, reason };
}
