import { startAuthentication } from '@simplewebauthn/browser';
import { describeErrorCode } from '@settlement/protocol';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod/mini';
import { startApiTestServer } from '../test/test-server';
import type { Reply, TestServer } from '../test/test-server';
import { apiRequest, isApiError, setUnauthenticatedHandler } from './api-client';

// The browser's passkey prompt: the test decides whether the operator confirms or cancels.
vi.mock('@simplewebauthn/browser', () => ({ startAuthentication: vi.fn() }));
const passkeyPrompt = vi.mocked(startAuthentication);

/** What an assertion of @simplewebauthn/browser looks like (the BFF verifies it, not us). */
const assertion = {
  id: 'cred-1',
  rawId: 'cred-1',
  type: 'public-key' as const,
  response: { clientDataJSON: 'cd', authenticatorData: 'ad', signature: 'sig' },
  clientExtensionResults: {},
};

/** The BFF's answer to a sensitive action without a fresh step-up. */
const stepUpRequired = (): Reply => ({
  status: 401,
  body: {
    code: 'STEP_UP_REQUIRED',
    message: describeErrorCode('STEP_UP_REQUIRED'),
    details: [{ stepUp: '/bff/auth/step-up/options' }],
    requestId: 'req-step-up',
    retryable: false,
  },
});

let server: TestServer;
/** Like the BFF: sensitive actions are refused until a step-up was verified. */
let isStepUpFresh: boolean;
let echoReply: () => Reply;
const signedOut = vi.fn();

beforeAll(async () => {
  server = await startApiTestServer();
  server.route('POST', '/bff/echo', () => echoReply());
  server.route('POST', '/bff/auth/step-up/options', () => ({
    body: { challenge: 'Y2hhbGxlbmdl', rpId: 'localhost', userVerification: 'required' },
  }));
  server.route('POST', '/bff/auth/step-up/verify', () => {
    isStepUpFresh = true;
    return { body: { freshUntil: '2026-01-01T00:05:00Z' } };
  });
});
afterAll(() => server.close());
beforeEach(() => {
  server.requests.length = 0;
  isStepUpFresh = false;
  echoReply = () => (isStepUpFresh ? { body: { ok: true } } : stepUpRequired());
  passkeyPrompt.mockReset();
  signedOut.mockReset();
  setUnauthenticatedHandler(signedOut);
});
afterEach(() => {
  setUnauthenticatedHandler(null);
});

const echoes = () => server.requests.filter((r) => r.path === '/bff/echo');
const Ok = z.object({ ok: z.literal(true) });

describe('apiRequest and STEP_UP_REQUIRED', () => {
  it('prompts, verifies, and sends the same request again with the same operation id and body', async () => {
    passkeyPrompt.mockResolvedValue(assertion);
    await expect(
      apiRequest('/bff/echo', Ok, { method: 'POST', body: { amount: '5' }, operationId: 'op-7' }),
    ).resolves.toEqual({ ok: true });
    expect(passkeyPrompt).toHaveBeenCalledTimes(1);
    expect(echoes().map((r) => [r.headers['x-operation-id'], r.body])).toEqual([
      ['op-7', { amount: '5' }],
      ['op-7', { amount: '5' }],
    ]);
    expect(signedOut).not.toHaveBeenCalled();
  });

  it('a cancelled prompt: STEP_UP_REQUIRED, nothing sent again, and the session is not "signed out"', async () => {
    passkeyPrompt.mockRejectedValue(new DOMException('cancelled', 'NotAllowedError'));
    const error: unknown = await apiRequest('/bff/echo', Ok, { method: 'POST', body: 1 }).catch(
      (e: unknown) => e,
    );
    expect(isApiError(error) && [error.code, error.message]).toEqual([
      'STEP_UP_REQUIRED',
      'Confirm it is you with your passkey to continue.',
    ]);
    expect(echoes()).toHaveLength(1);
    expect(server.requests.map((r) => r.path)).not.toContain('/bff/auth/step-up/verify');
    expect(signedOut).not.toHaveBeenCalled();
  });

  it('actions that need a step-up at the same moment share one prompt', async () => {
    // The operator answers only once both actions were refused (the prompt is still open).
    passkeyPrompt.mockImplementation(async () => {
      await vi.waitFor(() => {
        expect(server.requests.filter((r) => r.path === '/bff/echo')).toHaveLength(2);
      });
      return assertion;
    });
    const results = await Promise.all([
      apiRequest('/bff/echo', Ok, { method: 'POST', body: 1 }),
      apiRequest('/bff/echo', Ok, { method: 'POST', body: 2 }),
    ]);
    expect(results).toEqual([{ ok: true }, { ok: true }]);
    expect(passkeyPrompt).toHaveBeenCalledTimes(1);
  });

  it('a step-up the BFF still refuses is not replayed in a loop', async () => {
    // A verified step-up that the action still refuses (say, another BFF process's clock).
    echoReply = stepUpRequired;
    passkeyPrompt.mockResolvedValue(assertion);
    const error: unknown = await apiRequest('/bff/echo', z.unknown(), {
      method: 'POST',
      operationId: 'op-1',
    }).catch((e: unknown) => e);
    expect(isApiError(error) && error.code).toBe('STEP_UP_REQUIRED');
    // The original and one replay; one prompt.
    expect(echoes()).toHaveLength(2);
    expect(passkeyPrompt).toHaveBeenCalledTimes(1);
    expect(signedOut).not.toHaveBeenCalled();
  });
});
