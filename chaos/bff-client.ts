import { Agent, request } from 'undici';

/**
 * A signed-in operator talking to the BFF as the console does: the session cookie, the CSRF
 * header on writes, a same-origin Origin, and X-Operation-Id on idempotent operations. The
 * secrets it holds (cookie, CSRF token) are collected for the log scan.
 */

export type Answer = {
  status: number;
  json: unknown;
  text: string;
  requestId: string | null;
};

/** A failure below HTTP (connection refused or reset, timeout): the outcome is unknown. */
type NoAnswer = { status: 0; error: string };

export type Reply = Answer | NoAnswer;

export function isAnswer(reply: Reply): reply is Answer {
  return reply.status !== 0;
}

export function codeOf(reply: Reply): string | null {
  if (!isAnswer(reply)) return null;
  const json = reply.json;
  if (typeof json === 'object' && json !== null && 'code' in json) {
    const { code } = json;
    return typeof code === 'string' ? code : null;
  }
  return null;
}

const agent = new Agent({ keepAliveTimeout: 2_000, connections: 32 });

/** How long the workload waits for an answer before it counts the call as unanswered. */
const CALL_TIMEOUT_MS = 15_000;

export async function closeAgent(): Promise<void> {
  await agent.close();
}

export async function send(
  url: string,
  method: string,
  path: string,
  options: { headers?: Record<string, string>; body?: unknown; timeoutMs?: number } = {},
): Promise<Reply> {
  const headers: Record<string, string> = { ...options.headers };
  let body: string | undefined;
  if (options.body !== undefined) {
    body = JSON.stringify(options.body);
    headers['content-type'] = 'application/json';
  }
  try {
    const response = await request(`${url}${path}`, {
      method,
      headers,
      dispatcher: agent,
      ...(body === undefined ? {} : { body }),
      signal: AbortSignal.timeout(options.timeoutMs ?? CALL_TIMEOUT_MS),
    });
    const text = await response.body.text();
    let json: unknown = null;
    try {
      json = text ? JSON.parse(text) : null;
    } catch {
      json = null;
    }
    const requestId = response.headers['x-request-id'];
    return {
      status: response.statusCode,
      json,
      text,
      requestId: typeof requestId === 'string' ? requestId : null,
    };
  } catch (error) {
    return { status: 0, error: error instanceof Error ? error.message : String(error) };
  }
}

export type Operator = {
  username: string;
  call(
    method: string,
    path: string,
    options?: { body?: unknown; operationId?: string; timeoutMs?: number },
  ): Promise<Reply>;
  cookie(): string | null;
};

/** One HTTP exchange of an operator with a BFF, timed on the runner's performance.now(). */
export type CallSpan = {
  url: string;
  method: string;
  path: string;
  timeoutMs: number;
  startedMs: number;
  endedMs: number;
  reply: Reply;
};

/** Secrets seen on the wire (session cookies, CSRF tokens): none may appear in any log. */
export const wireSecrets = new Set<string>();

export function operatorOf(
  baseUrl: () => string,
  username: string,
  password: string,
  /** Sees every call once it has its reply (the freeze check). */
  onCall: (call: CallSpan) => void = () => undefined,
): Operator {
  let cookie: string | null = null;
  let csrf: string | null = null;

  async function login(): Promise<boolean> {
    const url = baseUrl();
    try {
      const response = await request(`${url}/bff/auth/login`, {
        method: 'POST',
        dispatcher: agent,
        headers: { origin: url, 'content-type': 'application/json' },
        body: JSON.stringify({ username, password }),
        signal: AbortSignal.timeout(15_000),
      });
      const text = await response.body.text();
      if (response.statusCode !== 200) return false;
      const setCookie = response.headers['set-cookie'];
      const first = Array.isArray(setCookie) ? setCookie[0] : setCookie;
      cookie = first?.split(';')[0] ?? null;
      const json = JSON.parse(text) as { csrfToken?: unknown };
      csrf = typeof json.csrfToken === 'string' ? json.csrfToken : null;
      if (cookie) wireSecrets.add(cookie.slice(cookie.indexOf('=') + 1));
      if (csrf) wireSecrets.add(csrf);
      return cookie !== null && csrf !== null;
    } catch {
      return false;
    }
  }

  async function call(
    method: string,
    path: string,
    options: { body?: unknown; operationId?: string; timeoutMs?: number } = {},
  ): Promise<Reply> {
    for (let attempt = 0; ; attempt += 1) {
      if (!cookie && !(await login())) {
        if (attempt >= 2) return { status: 0, error: `${username} cannot sign in` };
        await new Promise((done) => setTimeout(done, 300));
        continue;
      }
      const url = baseUrl();
      const headers: Record<string, string> = { origin: url };
      if (cookie) headers.cookie = cookie;
      if (csrf && method !== 'GET') headers['x-csrf-token'] = csrf;
      if (options.operationId) headers['x-operation-id'] = options.operationId;
      const timeoutMs = options.timeoutMs ?? CALL_TIMEOUT_MS;
      const startedMs = performance.now();
      const reply = await send(url, method, path, {
        headers,
        timeoutMs,
        ...(options.body === undefined ? {} : { body: options.body }),
      });
      onCall({ url, method, path, timeoutMs, startedMs, endedMs: performance.now(), reply });
      // A session can end (e.g. a store that lost it): sign in again once, as a person would.
      if (isAnswer(reply) && reply.status === 401 && codeOf(reply) === 'UNAUTHENTICATED') {
        cookie = null;
        if (attempt < 1) continue;
      }
      return reply;
    }
  }

  return { username, call, cookie: () => cookie };
}
