import {
  PasskeyRequestOptionsSchema,
  StepUpSchema,
  describeErrorCode,
  parseErrorEnvelope,
} from '@settlement/protocol';
import { z } from 'zod/mini';

/**
 * The only `fetch` caller of the console. Every call goes to the BFF on the same origin; a non-2xx
 * response becomes one ApiError carrying the interface's envelope.
 */

export type ApiErrorInit = {
  status: number;
  code: string;
  message: string;
  requestId: string;
  retryable: boolean;
  details: unknown[];
  /** How long the answer took, from sending the request; 0 when not measured. */
  elapsedMs?: number;
};

/**
 * The codes the console gives an error itself, when no envelope came; the interface's table has
 * no text for them, and "Error NETWORK_ERROR." is not one for an operator.
 */
const CONSOLE_ERROR_TEXT: Readonly<Record<string, string>> = {
  NETWORK_ERROR: "The console's server could not be reached or did not answer.",
  INVALID_RESPONSE: 'An answer did not have the shape the console expects.',
};

export class ApiError extends Error {
  override readonly name = 'ApiError';
  readonly status: number;
  readonly code: string;
  readonly requestId: string;
  readonly retryable: boolean;
  readonly details: unknown[];
  readonly elapsedMs: number;

  constructor(init: ApiErrorInit) {
    super(init.message);
    this.status = init.status;
    this.code = init.code;
    this.requestId = init.requestId;
    this.retryable = init.retryable;
    this.details = init.details;
    this.elapsedMs = init.elapsedMs ?? 0;
  }

  /** The code as human text: the interface's table, or the console's own codes below. */
  get description(): string {
    return CONSOLE_ERROR_TEXT[this.code] ?? describeErrorCode(this.code);
  }
}

export function isApiError(error: unknown): error is ApiError {
  return error instanceof ApiError;
}

let csrfToken: string | null = null;
let apiOrigin: string | null = null;
let onUnauthenticated: (() => void) | null = null;

/** The session's CSRF token, sent on every mutating request. */
export function setCsrfToken(token: string | null): void {
  csrfToken = token;
}

/**
 * The BFF's origin. The browser talks to its own origin (null: relative URLs); tests that run
 * outside a page point it at their server.
 */
export function setApiOrigin(origin: string | null): void {
  apiOrigin = origin;
}

/** Called when any request other than the session probe comes back 401 (session expired). */
export function setUnauthenticatedHandler(handler: (() => void) | null): void {
  onUnauthenticated = handler;
}

type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/**
 * How long a read waits for the console's server. The BFF answers every read within its own
 * budget (three upstream attempts of 10 s, then a 503), so a read still unanswered after this
 * waits on a server that hung, or on a connection that died without a word (a laptop that slept,
 * a network change): the page shows the error and "Try again" instead of waiting forever. Writes
 * have no such deadline: only the server knows their outcome, and the operation id makes the
 * operator's retry safe.
 */
export const READ_DEADLINE_MS = 45_000;
let readDeadlineMs = READ_DEADLINE_MS;

/** Tests shorten the read deadline. */
export function setReadDeadlineMs(ms: number): void {
  readDeadlineMs = ms;
}

export type RequestOptions = {
  method?: HttpMethod;
  body?: unknown;
  /** One id per logical action; the BFF turns it into the upstream idempotency key. */
  operationId?: string;
  signal?: AbortSignal | undefined;
  /** A 401 is an expected answer (the session probe and sign-in), not an expiry. */
  isSessionProbe?: boolean;
};

/** Builds `path?query` from filters, dropping empty values; keys are sorted for stable URLs. */
export function withQuery(path: string, params: Record<string, string | undefined | null>): string {
  const search = new URLSearchParams();
  for (const key of Object.keys(params).sort()) {
    const value = params[key];
    if (value !== undefined && value !== null && value !== '') search.set(key, value);
  }
  const query = search.toString();
  return query ? `${path}?${query}` : path;
}

/** An abort, as fetch and a stream reader reject with it (a DOMException of any realm). */
function isAbort(error: unknown): boolean {
  return error instanceof Error && error.name === 'AbortError';
}

async function send(path: string, options: RequestOptions): Promise<Response> {
  const method = options.method ?? 'GET';
  const headers = new Headers({ Accept: 'application/json' });
  let body: string | undefined;
  if (options.body !== undefined) {
    headers.set('Content-Type', 'application/json');
    body = JSON.stringify(options.body);
  }
  if (method !== 'GET' && csrfToken) headers.set('X-CSRF-Token', csrfToken);
  if (options.operationId) headers.set('X-Operation-Id', options.operationId);
  const startedAt = performance.now();
  try {
    return await fetch(apiOrigin ? new URL(path, apiOrigin) : path, {
      method,
      headers,
      credentials: 'same-origin',
      ...(body === undefined ? {} : { body }),
      ...(options.signal ? { signal: options.signal } : {}),
    });
  } catch (error) {
    if (isAbort(error)) throw error;
    throw new ApiError({
      status: 0,
      code: 'NETWORK_ERROR',
      message: 'The console could not reach its server. Check the connection and try again.',
      requestId: '',
      retryable: true,
      details: [],
      elapsedMs: performance.now() - startedAt,
    });
  }
}

async function readJson(response: Response): Promise<unknown> {
  const text = await response.text();
  if (text === '') return undefined;
  try {
    const value: unknown = JSON.parse(text);
    return value;
  } catch {
    return undefined;
  }
}

function errorFrom(response: Response, body: unknown, elapsedMs = 0): ApiError {
  const headerRequestId = response.headers.get('x-request-id') ?? '';
  const envelope = parseErrorEnvelope(body);
  if (envelope) {
    return new ApiError({
      status: response.status,
      code: envelope.code,
      message: envelope.message,
      requestId: envelope.requestId || headerRequestId,
      retryable: envelope.retryable,
      details: envelope.details,
      elapsedMs,
    });
  }
  const isGateway = response.status === 502 || response.status === 503 || response.status === 504;
  const code = isGateway
    ? 'UPSTREAM_UNAVAILABLE'
    : response.status === 401
      ? 'UNAUTHENTICATED'
      : 'INTERNAL_ERROR';
  return new ApiError({
    status: response.status,
    code,
    message: `The server answered ${response.status} without an error body.`,
    requestId: headerRequestId,
    retryable: isGateway,
    details: [],
    elapsedMs,
  });
}

/** What a read (or a page's code) that outlived the read deadline fails with. */
function deadlinePassed(what: 'answer' | 'send this page', elapsedMs: number): ApiError {
  const seconds = Math.round(readDeadlineMs / 1000);
  return new ApiError({
    status: 0,
    code: 'NETWORK_ERROR',
    message: `The console's server did not ${what} within ${String(seconds)} s. Check the connection and try again.`,
    requestId: '',
    retryable: true,
    details: [],
    elapsedMs,
  });
}

/**
 * A page's code (a route's chunk, from the console's server), given up after the read deadline
 * as a read is: a hung server otherwise holds the old page and "Still loading" for ever. The
 * import itself goes on, so a later try gets the chunk once the server answers.
 */
export function pageWithinDeadline<T>(pending: Promise<T>): Promise<T> {
  const startedAt = performance.now();
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => {
      reject(deadlinePassed('send this page', performance.now() - startedAt));
    }, readDeadlineMs);
    pending.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(error instanceof Error ? error : new Error(String(error)));
      },
    );
  });
}

/**
 * One request and its body. A read is given up after `readDeadlineMs` (headers and body alike)
 * as a NETWORK_ERROR that says so; the caller's own abort stays an AbortError.
 */
async function exchange(
  path: string,
  options: RequestOptions,
): Promise<{ response: Response; body: unknown }> {
  if ((options.method ?? 'GET') !== 'GET') {
    const response = await send(path, options);
    return { response, body: await readJson(response) };
  }
  const startedAt = performance.now();
  const deadline = new AbortController();
  const timer = setTimeout(() => {
    deadline.abort();
  }, readDeadlineMs);
  const callerSignal = options.signal;
  const forward = () => {
    deadline.abort(callerSignal?.reason);
  };
  if (callerSignal?.aborted) forward();
  callerSignal?.addEventListener('abort', forward, { once: true });
  try {
    const response = await send(path, { ...options, signal: deadline.signal });
    return { response, body: await readJson(response) };
  } catch (error) {
    if (!deadline.signal.aborted || callerSignal?.aborted) throw error;
    throw deadlinePassed('answer', performance.now() - startedAt);
  } finally {
    clearTimeout(timer);
    callerSignal?.removeEventListener('abort', forward);
  }
}

let stepUpInFlight: Promise<void> | null = null;

/**
 * The operator confirms with their passkey (the browser's own prompt): options, assertion,
 * verify. Concurrent actions that all need it share one prompt.
 */
function confirmWithPasskey(): Promise<void> {
  stepUpInFlight ??= (async () => {
    const optionsJSON = await apiRequest('/bff/auth/step-up/options', PasskeyRequestOptionsSchema, {
      method: 'POST',
    });
    // Loaded on the first step-up only: every page imports this module, few ever need a passkey.
    const { startAuthentication } = await import('@simplewebauthn/browser');
    const credential = await startAuthentication({ optionsJSON });
    await apiRequest('/bff/auth/step-up/verify', StepUpSchema, {
      method: 'POST',
      body: { credential },
    });
  })().finally(() => {
    stepUpInFlight = null;
  });
  return stepUpInFlight;
}

/** Sends a request and parses a 2xx body with `schema`; anything else throws ApiError. */
export async function apiRequest<T>(
  path: string,
  schema: z.core.$ZodType<T>,
  options: RequestOptions = {},
): Promise<T> {
  let startedAt = performance.now();
  let { response, body } = await exchange(path, options);
  // Sensitive actions of a passkey holder: ask for the passkey in place, then send the same
  // request again (same operation id), so whatever form started it keeps its state. If the
  // operator cancels the prompt, the action fails with STEP_UP_REQUIRED and can be retried.
  if (
    response.status === 401 &&
    parseErrorEnvelope(body)?.code === 'STEP_UP_REQUIRED' &&
    !path.startsWith('/bff/auth/step-up/')
  ) {
    const refused = errorFrom(response, body);
    try {
      await confirmWithPasskey();
    } catch {
      throw refused;
    }
    startedAt = performance.now();
    ({ response, body } = await exchange(path, options));
  }
  if (!response.ok) {
    const error = errorFrom(response, body, performance.now() - startedAt);
    const isSignedOut = response.status === 401 && error.code !== 'STEP_UP_REQUIRED';
    if (isSignedOut && !options.isSessionProbe) onUnauthenticated?.();
    throw error;
  }
  const parsed = z.safeParse(schema, body);
  if (!parsed.success) {
    throw new ApiError({
      status: response.status,
      code: 'INVALID_RESPONSE',
      message: `The response of ${path} did not have the expected shape: ${parsed.error.issues
        .slice(0, 3)
        .map((issue) => `${issue.path.join('.') || '(root)'} ${issue.message}`)
        .join('; ')}`,
      requestId: response.headers.get('x-request-id') ?? '',
      retryable: false,
      details: [],
    });
  }
  return parsed.data;
}

/**
 * Streams a 2xx body to `onChunk` as it arrives (a long CSV export never sits whole in a string);
 * a non-2xx answers with one ApiError, as apiRequest does. Returns the Content-Disposition file
 * name, when the server sent one.
 */
export async function apiDownload(
  path: string,
  options: { signal?: AbortSignal; onChunk: (chunk: Uint8Array<ArrayBuffer>) => void },
): Promise<{ fileName: string | null }> {
  const response = await send(path, { signal: options.signal });
  if (!response.ok) {
    const error = errorFrom(response, await readJson(response));
    if (response.status === 401) onUnauthenticated?.();
    throw error;
  }
  const reader = response.body?.getReader();
  try {
    for (let part = await reader?.read(); part && !part.done; part = await reader?.read()) {
      options.onChunk(part.value);
    }
  } catch (error) {
    if (isAbort(error)) throw error;
    // The server cut the connection after its headers: what arrived is not the whole body.
    throw new ApiError({
      status: response.status,
      code: 'NETWORK_ERROR',
      message: 'The download stopped before its end. Try again.',
      requestId: response.headers.get('x-request-id') ?? '',
      retryable: true,
      details: [],
    });
  }
  const disposition = response.headers.get('content-disposition') ?? '';
  return { fileName: /filename="([^"]+)"/.exec(disposition)?.[1] ?? null };
}
