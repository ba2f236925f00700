import type { KeyScope } from '../config';
import type { Role } from '@settlement/protocol';

/**
 * The allowlist of the interface's operations the BFF exposes under /bff/api/v1: each maps to
 * the role an operator needs and the scope of the key that signs it. Co-Signer endpoints are
 * deliberately absent.
 */
export type OperationName =
  | 'wallets.list'
  | 'wallets.get'
  | 'wallets.balances'
  | 'wallets.create'
  | 'accounts.list'
  | 'accounts.get'
  | 'accounts.create'
  | 'accounts.wallets'
  | 'accounts.balances'
  | 'accounts.transactions'
  | 'transactions.list'
  | 'transactions.get'
  | 'transactions.create'
  | 'assets.list'
  | 'mpc.initialize'
  | 'mpc.status';

export type Operation = {
  name: OperationName;
  method: 'GET' | 'POST';
  pattern: RegExp;
  role: Role;
  /** null: any key of the organization (assets). */
  scope: KeyScope | null;
  /** Needs X-Operation-Id; journaled and sent with a derived idempotency key. */
  isIdempotent: boolean;
  /** Query parameter names accepted (besides `lang`). */
  query: readonly string[];
};

const ID = '([^/?#]+)';
const PAGE = ['cursor', 'limit'] as const;

const OPERATIONS: readonly Operation[] = [
  op('wallets.list', 'GET', '/api/v1/wallets', 'support', 'wallets:read', [
    ...PAGE,
    'status',
    'chain',
    'addressContains',
    'createdFrom',
    'createdTo',
    'accountId',
    'sortBy',
    'sortOrder',
  ]),
  op('wallets.get', 'GET', `/api/v1/wallets/${ID}`, 'support', 'wallets:read'),
  op('wallets.balances', 'GET', `/api/v1/wallets/${ID}/balances`, 'support', 'wallets:read'),
  op('wallets.create', 'POST', '/api/v1/wallets', 'treasury', 'wallets:create', [], true),
  op('accounts.list', 'GET', '/api/v1/ledger/accounts', 'support', 'accounts:read', [
    ...PAGE,
    'search',
    'externalId',
  ]),
  op('accounts.create', 'POST', '/api/v1/ledger/accounts', 'treasury', 'wallets:create'),
  op('accounts.get', 'GET', `/api/v1/ledger/accounts/${ID}`, 'support', 'accounts:read'),
  op(
    'accounts.wallets',
    'GET',
    `/api/v1/ledger/accounts/${ID}/wallets`,
    'support',
    'wallets:read',
    [...PAGE, 'status', 'chain'],
  ),
  op(
    'accounts.balances',
    'GET',
    `/api/v1/ledger/accounts/${ID}/balances`,
    'support',
    'wallets:read',
  ),
  op(
    'accounts.transactions',
    'GET',
    `/api/v1/ledger/accounts/${ID}/transactions`,
    'support',
    'transactions:read',
    [...PAGE, 'status', 'type', 'asset', 'chain', 'walletId', 'createdFrom', 'createdTo'],
  ),
  op('transactions.list', 'GET', '/api/v1/transactions', 'support', 'transactions:read', [
    ...PAGE,
    'accountId',
    'walletId',
    'clientReference',
    'chain',
    'asset',
    'status',
    'type',
    'createdFrom',
    'createdTo',
  ]),
  op('transactions.get', 'GET', `/api/v1/transactions/${ID}`, 'support', 'transactions:read'),
  op(
    'transactions.create',
    'POST',
    '/api/v1/transactions',
    'treasury',
    'withdrawals:create',
    [],
    true,
  ),
  op('assets.list', 'GET', '/api/v1/assets', 'support', null, ['chain', 'asset']),
  op('mpc.initialize', 'POST', '/api/v1/mpc/initialize', 'admin', 'mpc:initialize', [], true),
  op('mpc.status', 'GET', '/api/v1/mpc/status', 'support', 'mpc:read'),
];

function op(
  name: OperationName,
  method: 'GET' | 'POST',
  path: string,
  role: Role,
  scope: KeyScope | null,
  query: readonly string[] = [],
  isIdempotent = false,
): Operation {
  return { name, method, pattern: new RegExp(`^${path}$`), role, scope, isIdempotent, query };
}

export function listOperations(): readonly Operation[] {
  return OPERATIONS;
}

/**
 * The operation a raw path (no query) and method name, or null. Ids must be non-empty
 * segments other than `.`/`..`.
 */
export function matchOperation(method: string, path: string): Operation | null {
  for (const operation of OPERATIONS) {
    if (operation.method !== method) continue;
    const match = operation.pattern.exec(path);
    if (!match) continue;
    const ids = match.slice(1);
    if (ids.some((id) => id === '.' || id === '..' || id === '%2e' || id === '%2E')) return null;
    return operation;
  }
  return null;
}

/** Whether the path names an operation under another method (405-like, answered 404 here). */
export function isKnownPath(path: string): boolean {
  return OPERATIONS.some((operation) => operation.pattern.test(path));
}

const QUERY_CHARS = /^[A-Za-z0-9\-._~%!$'()*+,;=:@/?&]*$/;
const MAX_QUERY_LENGTH = 4096;

/**
 * Checks a raw query string (without `?`) against the operation's parameters. The string is
 * passed upstream verbatim; this only refuses what the operation does not accept.
 */
export function queryProblem(operation: Operation, rawQuery: string): string | null {
  if (rawQuery.length === 0) return null;
  if (rawQuery.length > MAX_QUERY_LENGTH) return 'the query string is too long';
  if (!QUERY_CHARS.test(rawQuery))
    return 'the query string contains characters that must be percent-encoded';
  const seen = new Set<string>();
  for (const part of rawQuery.split('&')) {
    if (part.length === 0) return 'the query string has an empty parameter';
    const eq = part.indexOf('=');
    const rawName = eq === -1 ? part : part.slice(0, eq);
    const rawValue = eq === -1 ? '' : part.slice(eq + 1);
    let name: string;
    try {
      name = decodeURIComponent(rawName);
      decodeURIComponent(rawValue.replace(/\+/g, ' '));
    } catch {
      return `parameter "${rawName}" is not valid percent-encoding`;
    }
    if (name !== 'lang' && !operation.query.includes(name)) return `unknown parameter "${name}"`;
    if (seen.has(name)) return `parameter "${name}" is repeated`;
    seen.add(name);
  }
  return null;
}
