import { Agent, type Dispatcher } from 'undici';
import { z } from 'zod';
import {
  AccountDetailSchema,
  AccountSchema,
  AssetCatalogSchema,
  BalanceListSchema,
  MPC_INITIALIZE_BODY,
  MpcStatusSchema,
  TransactionSchema,
  WalletSchema,
  fullJitterDelay,
  listEnvelope,
  parseErrorEnvelope,
  utf8Bytes,
  type CreateAccountRequest,
  type CreateTransactionRequest,
  type CreateWalletRequest,
  type SignedLines,
} from '@settlement/protocol';
import { generateNonce, signRestRequest, type Signer } from '@settlement/protocol/signing';
import { timeOrderedId } from '@settlement/protocol/ids';
import type { CancelSignal } from './cancellation';
import { createDeadlines } from './deadlines';
import { exchange } from './exchange';
import { OutcomeUnknownError, SettlementApiError } from './errors';
import { REST_RETRY_DEFAULTS, sleep, type RetryOptions } from './retry';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** One HTTP attempt, reported to `onAttempt` (the BFF's request log). Never carries secrets. */
export type AttemptRecord = {
  attempt: number;
  method: HttpMethod;
  target: string;
  idempotencyKey: string | null;
  requestIdSent: string;
  status: number | null;
  upstreamRequestId: string | null;
  correlationId: string | null;
  durationMs: number;
  error: string | null;
  /**
   * The canonical string's non-secret lines of this attempt besides method and target (support
   * explains a 401 or 409 from them); null when signing itself failed. Never the signature.
   */
  signed: AttemptSignedLines | null;
  /** The upstream's clock (its Date header, epoch ms) when it answered: measures our skew. */
  upstreamDate: number | null;
  /** The error envelope of a non-2xx answer (code, message, details), when one came. */
  upstreamError: { code: string; message: string; details: unknown[] } | null;
};

/** What an attempt records of its canonical string besides method and target (already there). */
export type AttemptSignedLines = Omit<SignedLines, 'method' | 'target'>;

export type SendOptions = {
  /** The exact body bytes; hashed and sent as they are. */
  body?: Uint8Array | null;
  contentType?: string;
  idempotencyKey?: string;
  /** Our x-request-id; later attempts send it with a `.2`, `.3` suffix. */
  requestId?: string;
  signal?: CancelSignal;
  onAttempt?: (record: AttemptRecord) => void;
  /** Overrides of the client's retry policy for this call (e.g. a quick probe). */
  maxAttempts?: number;
  timeoutMs?: number;
};

export type RawResponse = {
  status: number;
  headers: Record<string, string>;
  bodyBytes: Uint8Array;
  attempts: number;
  requestIdSent: string;
  /** The upstream's requestId: its `x-request-id` header, else the error body's. */
  requestId: string | null;
  correlationId: string | null;
};

export type RequestOptions = {
  /** Serialized to JSON exactly once; those bytes are hashed and sent. */
  body?: unknown;
  idempotencyKey?: string;
  requestId?: string;
  signal?: CancelSignal;
  onAttempt?: (record: AttemptRecord) => void;
};

export type ApiResult<T> = {
  data: T;
  status: number;
  requestId: string | null;
  correlationId: string | null;
};

export type SettlementClientOptions = {
  baseUrl: string;
  signer: Signer;
  /** Shared keep-alive dispatcher; one is created (and owned) when left out. */
  dispatcher?: Dispatcher;
  retry?: Partial<RetryOptions>;
  random?: () => number;
  /** The signing clock and nonce source (tests provoke skew and nonce reuse with them). */
  clock?: { now?: () => number; nonce?: () => string };
};

export type QueryValue = string | number | boolean | null | undefined;

/** Appends a query string built once; undefined and null values are left out. */
export function withQuery(path: string, query: Record<string, QueryValue> = {}): string {
  const parts: string[] = [];
  for (const [key, value] of Object.entries(query)) {
    if (value === undefined || value === null) continue;
    parts.push(`${encodeURIComponent(key)}=${encodeURIComponent(String(value))}`);
  }
  return parts.length === 0 ? path : `${path}${path.includes('?') ? '&' : '?'}${parts.join('&')}`;
}

const seg = encodeURIComponent;

function flattenHeaders(raw: Record<string, string | string[] | undefined>) {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(raw)) {
    if (value === undefined) continue;
    out[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
  }
  return out;
}

function parseJson(bytes: Uint8Array): unknown {
  if (bytes.length === 0) return undefined;
  try {
    return JSON.parse(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length).toString('utf8'));
  } catch {
    return undefined;
  }
}

function correlationIdOf(headers: Record<string, string>, body: unknown): string | null {
  const header = headers['x-correlation-id'];
  if (header) return header;
  if (typeof body === 'object' && body !== null && 'correlationId' in body) {
    const value = body.correlationId;
    if (typeof value === 'string' && value.length > 0) return value;
  }
  return null;
}

function requestIdOf(headers: Record<string, string>, body: unknown): string | null {
  return headers['x-request-id'] ?? parseErrorEnvelope(body)?.requestId ?? null;
}

function errorText(error: unknown): string {
  if (error instanceof Error) {
    const code = (error as { code?: unknown }).code;
    return typeof code === 'string' ? `${code}: ${error.message}` : error.message;
  }
  return String(error);
}

/** 503, or any 5xx whose envelope says retryable; 4xx never. */
function isRetryableResponse(status: number, body: unknown): boolean {
  if (status === 503) return true;
  if (status < 500) return false;
  return parseErrorEnvelope(body)?.retryable === true;
}

/** A non-2xx response as a typed error (an envelope when the upstream sent one). */
export function errorFromResponse(response: RawResponse): SettlementApiError {
  const body = parseJson(response.bodyBytes);
  const envelope = parseErrorEnvelope(body);
  if (envelope) return SettlementApiError.fromEnvelope(response.status, envelope);
  return new SettlementApiError({
    code: `HTTP_${response.status}`,
    status: response.status,
    message: `upstream answered ${response.status} without an error envelope`,
    requestId: response.requestId,
    retryable: response.status === 503,
  });
}

/** A body parsed as JSON on first use, once. */
class LazyJson {
  private parsed: { value: unknown } | null = null;
  constructor(private readonly bytes: Uint8Array) {}
  value(): unknown {
    return (this.parsed ??= { value: parseJson(this.bytes) }).value;
  }
}

/** What every record of one attempt says, whatever its outcome. */
type AttemptBase = Pick<
  AttemptRecord,
  'attempt' | 'method' | 'target' | 'idempotencyKey' | 'requestIdSent' | 'signed'
> & { started: number };

/**
 * One attempt's record. Module functions and classes here rather than closures in `send`: the
 * server code runs under tsx, which names every closure assigned to a name each time it is
 * created (an Object.defineProperty), on every proxied read.
 */
function attemptRecord(base: AttemptBase, fields: Partial<AttemptRecord>): AttemptRecord {
  return {
    attempt: base.attempt,
    method: base.method,
    target: base.target,
    idempotencyKey: base.idempotencyKey,
    requestIdSent: base.requestIdSent,
    status: null,
    upstreamRequestId: null,
    correlationId: null,
    durationMs: Math.round(performance.now() - base.started),
    error: null,
    signed: base.signed,
    upstreamDate: null,
    upstreamError: null,
    ...fields,
  };
}

export type SettlementClient = ReturnType<typeof createSettlementClient>;

export function createSettlementClient(options: SettlementClientOptions) {
  const base = new URL(options.baseUrl);
  const origin = base.origin;
  const basePath = base.pathname.replace(/\/+$/, '');
  const retry: RetryOptions = { ...REST_RETRY_DEFAULTS, ...options.retry };
  const random = options.random ?? Math.random;
  const ownsDispatcher = options.dispatcher === undefined;
  const dispatcher = options.dispatcher ?? new Agent({ keepAliveTimeout: 10_000, connections: 32 });
  const { signer } = options;
  const clock = options.clock ?? {};
  const nonceOf = clock.nonce ?? generateNonce;
  const deadlines = createDeadlines();

  async function attemptOnce(
    method: HttpMethod,
    target: string,
    send: SendOptions,
    requestIdSent: string,
    onSigned: (lines: AttemptSignedLines) => void,
  ) {
    const body = send.body ?? null;
    const signedHeaders = signRestRequest(
      signer,
      { method, target, body },
      clock.now ? { now: clock.now(), nonce: nonceOf() } : { nonce: nonceOf() },
    );
    onSigned({
      keyId: signedHeaders['X-Api-Key-Id'],
      timestamp: signedHeaders['X-Api-Timestamp'],
      nonce: signedHeaders['X-Api-Nonce'],
      bodyHash: signedHeaders['X-Api-Body-Hash'] ?? null,
    });
    const headers: Record<string, string> = {
      ...signedHeaders,
      accept: 'application/json',
      'x-request-id': requestIdSent,
    };
    if (body !== null) headers['content-type'] = send.contentType ?? 'application/json';
    if (send.idempotencyKey !== undefined) headers['X-Idempotency-Key'] = send.idempotencyKey;
    const timeoutMs = send.timeoutMs ?? retry.timeoutMs;
    // The whole attempt (queueing for a connection, headers, body) under one deadline; undici's
    // own headers/body timeouts alone would leave the wait for a pooled connection unbounded.
    const deadline = deadlines.arm(timeoutMs, send.signal);
    try {
      const answer = await exchange(dispatcher, {
        origin,
        path: target,
        method,
        headers,
        body,
        signal: deadline.signal,
        headersTimeout: timeoutMs,
        bodyTimeout: timeoutMs,
      });
      return {
        status: answer.status,
        headers: flattenHeaders(answer.headers),
        bodyBytes: answer.bodyBytes,
      };
    } finally {
      deadline.clear();
    }
  }

  /**
   * Sends one logical request, signed over the exact target and bytes that go on the wire,
   * retrying per DESIGN.md. Returns whatever the upstream answered (any status) without
   * re-serializing it. A mutating call that ends without a definitive answer throws
   * OutcomeUnknownError; a read that never reached the upstream throws SettlementApiError.
   */
  async function send(
    method: HttpMethod,
    pathWithQuery: string,
    sendOptions: SendOptions = {},
  ): Promise<RawResponse> {
    if (!pathWithQuery.startsWith('/')) throw new TypeError('path must start with "/"');
    const target = `${basePath}${pathWithQuery}`;
    const isMutating = method !== 'GET';
    const canRetry = !isMutating || sendOptions.idempotencyKey !== undefined;
    const maxAttempts = canRetry ? Math.max(1, sendOptions.maxAttempts ?? retry.maxAttempts) : 1;
    const baseRequestId = sendOptions.requestId ?? timeOrderedId();
    let lastError: unknown = null;
    let lastResponse: RawResponse | null = null;

    for (let attempt = 1; attempt <= maxAttempts; attempt += 1) {
      if (attempt > 1) await sleep(fullJitterDelay(attempt - 1, retry, random), sendOptions.signal);
      const requestIdSent = attempt === 1 ? baseRequestId : `${baseRequestId}.${attempt}`;
      const started = performance.now();
      const attemptBase: AttemptBase = {
        attempt,
        method,
        target,
        idempotencyKey: sendOptions.idempotencyKey ?? null,
        requestIdSent,
        started,
        signed: null,
      };
      let answer: Awaited<ReturnType<typeof attemptOnce>>;
      try {
        answer = await attemptOnce(method, target, sendOptions, requestIdSent, (lines) => {
          attemptBase.signed = lines;
        });
      } catch (error) {
        if (sendOptions.signal?.aborted) throw error;
        sendOptions.onAttempt?.(attemptRecord(attemptBase, { error: errorText(error) }));
        lastError = error;
        lastResponse = null;
        continue;
      }
      // The body is parsed only when a header is missing or the status is an error: a read's
      // answer (kilobytes of JSON, both ids in headers) is passed on as bytes, never parsed here.
      const body = new LazyJson(answer.bodyBytes);
      const response: RawResponse = {
        ...answer,
        attempts: attempt,
        requestIdSent,
        requestId: answer.headers['x-request-id'] ?? requestIdOf(answer.headers, body.value()),
        correlationId:
          answer.headers['x-correlation-id'] || correlationIdOf(answer.headers, body.value()),
      };
      const envelope = response.status >= 400 ? parseErrorEnvelope(body.value()) : null;
      const date = Date.parse(answer.headers.date ?? '');
      sendOptions.onAttempt?.(
        attemptRecord(attemptBase, {
          status: response.status,
          upstreamRequestId: response.requestId,
          correlationId: response.correlationId,
          upstreamDate: Number.isNaN(date) ? null : date,
          upstreamError: envelope
            ? { code: envelope.code, message: envelope.message, details: envelope.details }
            : null,
        }),
      );
      if (response.status < 500 || !isRetryableResponse(response.status, body.value())) {
        return response;
      }
      lastResponse = response;
      lastError = errorFromResponse(response);
    }

    if (isMutating) {
      throw new OutcomeUnknownError({
        attempts: maxAttempts,
        idempotencyKey: sendOptions.idempotencyKey ?? null,
        lastStatus: lastResponse?.status ?? null,
        lastRequestId: lastResponse?.requestId ?? null,
        cause: lastError,
      });
    }
    if (lastResponse) return lastResponse;
    throw new SettlementApiError({
      code: 'UPSTREAM_UNAVAILABLE',
      status: 503,
      message: `upstream unreachable: ${errorText(lastError)}`,
      requestId: null,
      retryable: true,
    });
  }

  /** A JSON request: 2xx gives the parsed body, anything else a SettlementApiError. */
  async function request(
    method: HttpMethod,
    pathWithQuery: string,
    requestOptions: RequestOptions = {},
  ): Promise<ApiResult<unknown>> {
    const { body, ...rest } = requestOptions;
    const bytes = body === undefined ? null : utf8Bytes(JSON.stringify(body));
    return requestBytes(method, pathWithQuery, bytes, rest);
  }

  async function requestBytes(
    method: HttpMethod,
    pathWithQuery: string,
    body: Uint8Array | null,
    rest: Omit<RequestOptions, 'body'>,
  ): Promise<ApiResult<unknown>> {
    const sendOptions: SendOptions = { body };
    if (rest.idempotencyKey !== undefined) sendOptions.idempotencyKey = rest.idempotencyKey;
    if (rest.requestId !== undefined) sendOptions.requestId = rest.requestId;
    if (rest.signal !== undefined) sendOptions.signal = rest.signal;
    if (rest.onAttempt !== undefined) sendOptions.onAttempt = rest.onAttempt;
    const response = await send(method, pathWithQuery, sendOptions);
    if (response.status < 200 || response.status >= 300) throw errorFromResponse(response);
    return {
      data: parseJson(response.bodyBytes),
      status: response.status,
      requestId: response.requestId,
      correlationId: response.correlationId,
    };
  }

  async function typed<S extends z.core.$ZodType>(
    schema: S,
    pending: Promise<ApiResult<unknown>>,
  ): Promise<z.infer<S>> {
    const result = await pending;
    const parsed = z.safeParse(schema, result.data);
    if (!parsed.success) {
      throw new SettlementApiError({
        code: 'INVALID_RESPONSE',
        status: result.status,
        message: `upstream response does not match the interface: ${parsed.error.message}`,
        requestId: result.requestId,
        retryable: false,
      });
    }
    return parsed.data;
  }

  type Call = Omit<RequestOptions, 'body' | 'idempotencyKey'>;
  type Query = Record<string, QueryValue>;
  const get = <S extends z.core.$ZodType>(schema: S, path: string, call: Call = {}) =>
    typed(schema, request('GET', path, call));

  const accountList = listEnvelope(AccountSchema);
  const walletList = listEnvelope(WalletSchema);
  const transactionList = listEnvelope(TransactionSchema);

  return {
    send,
    request,
    listAccounts: (query: Query = {}, call?: Call) =>
      get(accountList, withQuery('/api/v1/ledger/accounts', query), call),
    getAccount: (accountId: string, call?: Call) =>
      get(AccountDetailSchema, `/api/v1/ledger/accounts/${seg(accountId)}`, call),
    createAccount: (body: CreateAccountRequest, call: Call = {}) =>
      typed(AccountSchema, request('POST', '/api/v1/ledger/accounts', { ...call, body })),
    listAccountWallets: (accountId: string, query: Query = {}, call?: Call) =>
      get(walletList, withQuery(`/api/v1/ledger/accounts/${seg(accountId)}/wallets`, query), call),
    getAccountBalances: (accountId: string, call?: Call) =>
      get(BalanceListSchema, `/api/v1/ledger/accounts/${seg(accountId)}/balances`, call),
    listAccountTransactions: (accountId: string, query: Query = {}, call?: Call) =>
      get(
        transactionList,
        withQuery(`/api/v1/ledger/accounts/${seg(accountId)}/transactions`, query),
        call,
      ),
    listWallets: (query: Query = {}, call?: Call) =>
      get(walletList, withQuery('/api/v1/wallets', query), call),
    getWallet: (walletId: string, call?: Call) =>
      get(WalletSchema, `/api/v1/wallets/${seg(walletId)}`, call),
    getWalletBalances: (walletId: string, call?: Call) =>
      get(BalanceListSchema, `/api/v1/wallets/${seg(walletId)}/balances`, call),
    createWallet: (body: CreateWalletRequest, idempotencyKey: string, call: Call = {}) =>
      typed(WalletSchema, request('POST', '/api/v1/wallets', { ...call, body, idempotencyKey })),
    listTransactions: (query: Query = {}, call?: Call) =>
      get(transactionList, withQuery('/api/v1/transactions', query), call),
    getTransaction: (transactionId: string, call?: Call) =>
      get(TransactionSchema, `/api/v1/transactions/${seg(transactionId)}`, call),
    createTransaction: (body: CreateTransactionRequest, idempotencyKey: string, call: Call = {}) =>
      typed(
        TransactionSchema,
        request('POST', '/api/v1/transactions', { ...call, body, idempotencyKey }),
      ),
    listAssets: (call?: Call) => get(AssetCatalogSchema, '/api/v1/assets', call),
    getMpcStatus: (call?: Call) => get(MpcStatusSchema, '/api/v1/mpc/status', call),
    /** Exactly the two bytes `{}`, hashed, under the caller's durable key. */
    initializeMpc: (idempotencyKey: string, call: Call = {}) =>
      requestBytes('POST', '/api/v1/mpc/initialize', utf8Bytes(MPC_INITIALIZE_BODY), {
        ...call,
        idempotencyKey,
      }),
    async close(): Promise<void> {
      if (ownsDispatcher) await dispatcher.close();
    },
  };
}
