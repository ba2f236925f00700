import {
  FINGERPRINT_PARTS,
  type ExplanationCause,
  type RequestExplanation,
  type SignedLines,
} from '@settlement/protocol';
import { sha256Hex } from '@settlement/protocol/signing';
import { HttpError } from '../errors';
import type { Services } from '../services/services';
import { matchOperation } from '../services/operations';
import type { RequestLogRow } from '../store/logs';

/** DESIGN.md "Decisions where the interface is silent": +-300 s skew, nonces kept 600 s. */
const ALLOWED_SKEW_SECONDS = 300;
const NONCE_RETENTION_SECONDS = 600;

/** The field and rule of the interface's domain codes (details, when present, win). */
const RULES: Record<string, { field: string | null; rule: string }> = {
  UNSUPPORTED_CHAIN: { field: 'chain', rule: 'must be a chain the catalog enables' },
  UNSUPPORTED_ASSET: { field: 'asset', rule: 'must be an asset GET /api/v1/assets lists' },
  INVALID_ADDRESS: { field: 'toAddress', rule: "must be a valid address of the wallet's chain" },
  INVALID_FEE_LIMIT: {
    field: 'chainParams.feeLimitAtomic',
    rule: 'TRC-20 only, between 1 and 15000 TRX in atomic units',
  },
  INSUFFICIENT_AVAILABLE_BALANCE: {
    field: 'amountAtomic',
    rule: 'amount plus network fee must not exceed the availableBalance',
  },
  ACCOUNT_METADATA_TOO_LARGE: { field: 'metadata', rule: 'at most 16 KiB' },
  VALIDATION_ERROR: { field: null, rule: 'well-formed JSON with every required field typed' },
  INVALID_QUERY_PARAMETER: { field: null, rule: 'a query parameter the operation accepts' },
};

const IDEMPOTENCY_CODES = new Set(['IDEMPOTENCY_CONFLICT', 'mpc.errors.IDEMPOTENCY_CONFLICT']);

type Detail = Record<string, unknown>;

function parseDetails(text: string | null): Detail[] {
  if (!text) return [];
  try {
    const value: unknown = JSON.parse(text);
    return Array.isArray(value)
      ? value.filter((d): d is Detail => typeof d === 'object' && d !== null)
      : [];
  } catch {
    return [];
  }
}

function text(value: unknown): string | null {
  return typeof value === 'string' && value.length > 0 ? value : null;
}

const iso = (ms: number) => new Date(ms).toISOString();

function apiPath(target: string): string {
  const path = target.split('?')[0] ?? target;
  const at = path.indexOf('/api/v1/');
  return at === -1 ? path : path.slice(at);
}

type Draft = Omit<RequestExplanation, 'requestId' | 'at' | 'operation' | 'method' | 'path'>;

/**
 * Why one upstream call failed, in words, from what the BFF recorded of it: its signed lines
 * (never the signature), the upstream's clock and error envelope, earlier attempts with the
 * same nonce or idempotency key, and the configured keys. It branches on codes and statuses,
 * never on the upstream's free-form message.
 */
export async function explainRequest(
  services: Pick<Services, 'logs' | 'upstream' | 'journal'>,
  requestId: string,
): Promise<RequestExplanation> {
  const row = await services.logs.requestById(requestId);
  if (!row) {
    throw new HttpError('RESOURCE_NOT_FOUND', 'No upstream call with this request id is logged.');
  }
  const signed: SignedLines | null =
    row.keyId && row.signedTimestamp && row.nonce
      ? {
          method: row.method,
          target: row.path,
          bodyHash: row.bodyHash,
          timestamp: row.signedTimestamp,
          nonce: row.nonce,
          keyId: row.keyId,
        }
      : null;
  const draft = await diagnose(services, row, signed);
  return {
    requestId: row.requestIdSent,
    at: iso(row.at),
    operation: row.operation,
    method: row.method,
    path: row.path,
    ...draft,
  };
}

function empty(
  row: RequestLogRow,
  signed: SignedLines | null,
  cause: ExplanationCause,
  summary: string,
): Draft {
  return {
    attempt: row.attempt,
    status: row.status,
    code: row.errorCode,
    cause,
    summary,
    findings: [],
    signed,
    skew: null,
    nonce: null,
    bodyHash: null,
    key: null,
    idempotency: null,
    validation: null,
  };
}

async function diagnose(
  services: Pick<Services, 'logs' | 'upstream' | 'journal'>,
  row: RequestLogRow,
  signed: SignedLines | null,
): Promise<Draft> {
  if (row.status === null) {
    return empty(
      row,
      signed,
      'other',
      `No answer arrived from the upstream (${row.error ?? 'no error recorded'}).`,
    );
  }
  if (row.status < 400) {
    return empty(row, signed, 'not-failed', `The upstream answered ${row.status}: not a failure.`);
  }
  if (row.status === 401 && signed) return explain401(services, row, signed);
  if (row.status === 403 && row.errorCode === 'FORBIDDEN' && signed) {
    return explain403(services, row, signed);
  }
  if (row.errorCode && IDEMPOTENCY_CODES.has(row.errorCode) && signed) {
    return explainConflict(services, row, signed);
  }
  if (row.status === 422 || row.errorCode === 'VALIDATION_ERROR') {
    return explainValidation(row, signed);
  }
  return empty(
    row,
    signed,
    'other',
    `The upstream answered ${row.status} ${row.errorCode ?? ''}: ${row.errorMessage ?? 'no error envelope'}`.trim(),
  );
}

async function explain401(
  services: Pick<Services, 'logs' | 'upstream' | 'journal'>,
  row: RequestLogRow,
  signed: SignedLines,
): Promise<Draft> {
  const findings: string[] = [];
  const draft = empty(row, signed, 'signature-refused', '');
  // Skew: our signed timestamp against the upstream's own clock (its Date header).
  if (row.upstreamDate !== null) {
    const seconds = Number(signed.timestamp) - Math.floor(row.upstreamDate / 1000);
    draft.skew = { seconds, allowedSeconds: ALLOWED_SKEW_SECONDS };
    findings.push(
      `X-Api-Timestamp ${signed.timestamp} is ${seconds} s from the upstream's clock (${iso(row.upstreamDate)}); allowed +-${ALLOWED_SKEW_SECONDS} s.`,
    );
  } else {
    findings.push("The upstream sent no Date header: the skew can't be measured.");
  }
  const earlier = await services.logs.earlierNonce(signed.keyId, signed.nonce, row.id);
  const isReplay = earlier !== null && row.at - earlier.at <= NONCE_RETENTION_SECONDS * 1000;
  if (earlier) {
    draft.nonce = {
      firstRequestId: earlier.requestIdSent,
      firstAt: iso(earlier.at),
      retentionSeconds: NONCE_RETENTION_SECONDS,
    };
    findings.push(
      `Nonce ${signed.nonce} of key ${signed.keyId} was first used by ${earlier.requestIdSent} at ${iso(earlier.at)} (${Math.round((row.at - earlier.at) / 1000)} s earlier; kept ${NONCE_RETENTION_SECONDS} s).`,
    );
  } else {
    findings.push(`Nonce ${signed.nonce} was not used before by key ${signed.keyId}.`);
  }
  const configured = services.upstream.describeKey(signed.keyId);
  const accepted = await services.logs.keyAcceptedBefore(signed.keyId, row.id);
  draft.key = {
    keyId: signed.keyId,
    isConfigured: configured !== null,
    scopes: configured?.scopes ?? [],
    requiredScope: null,
  };
  findings.push(
    configured
      ? `Key ${signed.keyId} is the BFF's key "${configured.name}"; the upstream ${accepted ? 'accepted it before' : 'never accepted it in the request log'}.`
      : `Key ${signed.keyId} is not one of the BFF's configured keys.`,
  );
  const bodyHash = await bodyHashEvidence(services, row, signed);
  draft.bodyHash = bodyHash;
  if (bodyHash) {
    findings.push(
      `X-Api-Body-Hash declared ${bodyHash.declared ?? '(none)'}; the bytes sent hash to ${bodyHash.ofBytesSent ?? '(unknown)'}.`,
    );
  }

  if (draft.skew && Math.abs(draft.skew.seconds) > ALLOWED_SKEW_SECONDS) {
    draft.cause = 'timestamp-skew';
    draft.summary = `Refused for clock skew: the BFF signed ${Math.abs(draft.skew.seconds)} s ${draft.skew.seconds > 0 ? 'ahead of' : 'behind'} the upstream's clock (allowed ${ALLOWED_SKEW_SECONDS} s). Fix the BFF host's clock (NTP).`;
  } else if (isReplay) {
    draft.cause = 'nonce-reused';
    draft.summary = `Refused as a replay: nonce ${signed.nonce} was already used by request ${earlier.requestIdSent} within the ${NONCE_RETENTION_SECONDS} s the upstream keeps nonces.`;
  } else if (bodyHash?.ofBytesSent && bodyHash.declared !== bodyHash.ofBytesSent) {
    draft.cause = 'body-hash-mismatch';
    draft.summary = `Refused for a body-hash mismatch: X-Api-Body-Hash ${bodyHash.declared ?? '(none)'} but the body hashes to ${bodyHash.ofBytesSent}.`;
  } else if (!configured || !accepted) {
    draft.cause = 'unknown-key';
    draft.summary = configured
      ? `Refused key ${signed.keyId}: the upstream has never accepted it, so it is unknown there, revoked, or registered with another public key.`
      : `Refused key ${signed.keyId}: it is not a key this BFF holds, and the upstream does not know it.`;
  } else {
    draft.summary = `The signature of key ${signed.keyId} was refused although the clock, nonce and body hash check out: the key may have been revoked or rotated upstream, or a proxy altered the request.`;
  }
  draft.findings = findings;
  return draft;
}

/**
 * The declared hash against the hash of the bytes the BFF holds for the call (the journal keeps
 * the exact body of every idempotent operation); the upstream's own hash when its details name it.
 */
async function bodyHashEvidence(
  services: Pick<Services, 'journal'>,
  row: RequestLogRow,
  signed: SignedLines,
): Promise<RequestExplanation['bodyHash']> {
  for (const detail of parseDetails(row.errorDetails)) {
    const field = text(detail.field);
    if (field && /body.?hash/i.test(field)) {
      return {
        declared: signed.bodyHash,
        ofBytesSent: text(detail.received) ?? text(detail.actual) ?? null,
      };
    }
  }
  const entry = row.operationId ? await services.journal.get(row.operationId) : null;
  if (entry && signed.bodyHash !== null) {
    return { declared: signed.bodyHash, ofBytesSent: sha256Hex(entry.body) };
  }
  return signed.bodyHash === null ? null : { declared: signed.bodyHash, ofBytesSent: null };
}

function explain403(
  services: Pick<Services, 'upstream'>,
  row: RequestLogRow,
  signed: SignedLines,
): Draft {
  const draft = empty(row, signed, 'missing-scope', '');
  const configured = services.upstream.describeKey(signed.keyId);
  const required = matchOperation(row.method, apiPath(row.path))?.scope ?? null;
  const scopes = configured?.scopes ?? [];
  draft.key = {
    keyId: signed.keyId,
    isConfigured: configured !== null,
    scopes,
    requiredScope: required,
  };
  draft.summary =
    required && !scopes.some((s) => s === required)
      ? `Forbidden: key ${signed.keyId} (scopes ${scopes.join(', ') || 'none known'}) lacks ${required}, which ${row.method} ${apiPath(row.path)} needs.`
      : `Forbidden although key ${signed.keyId} carries ${required ?? 'the scope'}: an IP, organization or plan restriction applies upstream.`;
  draft.findings = [
    `Required scope: ${required ?? 'not known for this path'}.`,
    `Key scopes as configured: ${scopes.join(', ') || 'none (key not configured here)'}.`,
  ];
  return draft;
}

async function explainConflict(
  services: Pick<Services, 'logs'>,
  row: RequestLogRow,
  signed: SignedLines,
): Promise<Draft> {
  const draft = empty(row, signed, 'idempotency-conflict', '');
  const key = row.idempotencyKey;
  const first = key ? await services.logs.firstUseOfKey(key, row.id) : null;
  if (!key || !first) {
    draft.summary = `Idempotency conflict on key ${key ?? '(none)'}: its first use is not in this BFF's request log (another client, or pruned), so the differing part can't be named.`;
    return draft;
  }
  const firstPrint = { method: first.method, target: first.path, bodyHash: first.bodyHash };
  const thisPrint = { method: row.method, target: row.path, bodyHash: signed.bodyHash };
  const differs = FINGERPRINT_PARTS.filter((part) => firstPrint[part] !== thisPrint[part]);
  draft.idempotency = {
    key,
    firstRequestId: first.requestIdSent,
    firstAt: iso(first.at),
    differs,
    first: firstPrint,
    this: thisPrint,
  };
  draft.findings = FINGERPRINT_PARTS.map(
    (part) =>
      `${part}: first ${firstPrint[part] ?? '(none)'}, this ${thisPrint[part] ?? '(none)'}${firstPrint[part] === thisPrint[part] ? ' (same)' : ' (differs)'}`,
  );
  draft.summary =
    differs.length > 0
      ? `Idempotency key ${key} was first used by ${first.requestIdSent} at ${iso(first.at)} with another ${differs.join(' and ')}: a key stands for one request only.`
      : `Idempotency key ${key} was first used by ${first.requestIdSent} with the same method, target and body hash; the upstream still saw a conflict (its own record may differ).`;
  return draft;
}

function explainValidation(row: RequestLogRow, signed: SignedLines | null): Draft {
  const known = row.errorCode ? RULES[row.errorCode] : undefined;
  const details = parseDetails(row.errorDetails);
  const detail = details.find((d) => text(d.field) !== null);
  const field = text(detail?.field) ?? known?.field ?? null;
  const rule =
    text(detail?.issue) ??
    text(detail?.rule) ??
    text(detail?.message) ??
    known?.rule ??
    'see the upstream message';
  const cause: ExplanationCause = row.status === 422 ? 'domain-rule' : 'validation';
  const draft = empty(row, signed, cause, '');
  draft.validation = { field, rule };
  draft.summary = `${row.errorCode ?? `HTTP ${row.status}`}: ${field ?? 'the request'} ${rule}.`;
  draft.findings = details.map((d) => JSON.stringify(d));
  return draft;
}
