import { request } from 'undici';
import { recordAttempts, type Services } from './services';

export type CoSignerHealth = {
  reachable: boolean;
  ok: boolean;
  httpStatus: number | null;
  checkedAt: string;
};

const PROBE_TIMEOUT_MS = 2_000;

/**
 * Ready when a signed read of the asset catalog succeeds (reachable and keys accepted); the
 * request log names the `operation` that asked.
 */
export async function isUpstreamReady(services: Services, operation = 'readyz'): Promise<boolean> {
  const chosen = services.upstream.clientFor(null);
  if (!chosen) return false;
  try {
    const response = await chosen.client.send('GET', '/api/v1/assets', {
      maxAttempts: 1,
      timeoutMs: PROBE_TIMEOUT_MS,
      onAttempt: recordAttempts(services, {
        operator: null,
        operation,
        operationId: null,
      }),
    });
    return response.status === 200;
  } catch {
    return false;
  }
}

/** Probes the Co-Signer's local health endpoint (2 s timeout). */
export async function coSignerHealth(
  services: Services,
  url: string | null,
): Promise<CoSignerHealth> {
  const checkedAt = new Date(services.now()).toISOString();
  if (url === null) return { reachable: false, ok: false, httpStatus: null, checkedAt };
  try {
    const response = await request(url, {
      method: 'GET',
      dispatcher: services.upstream.dispatcher,
      signal: AbortSignal.timeout(PROBE_TIMEOUT_MS),
      headersTimeout: PROBE_TIMEOUT_MS,
      bodyTimeout: PROBE_TIMEOUT_MS,
    });
    await response.body.dump();
    const ok = response.statusCode >= 200 && response.statusCode < 300;
    return { reachable: true, ok, httpStatus: response.statusCode, checkedAt };
  } catch {
    return { reachable: false, ok: false, httpStatus: null, checkedAt };
  }
}
