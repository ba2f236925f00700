import type { Logger } from 'pino';
import type { AttemptRecord } from '@settlement/client';
import type { Config } from '../config';
import { fixedFieldLogger } from '../logger';
import type { JournalStore } from '../store/journal';
import type { LogStore } from '../store/logs';
import type { OperatorStore } from '../store/operators';
import type { SessionStore } from '../store/sessions';
import type { SettingsStore } from '../store/settings';
import type { Upstream } from '../upstream/upstream';
import type { LoginThrottle } from './login-throttle';

/** What services receive: stores, the upstream and the logger. Never `req`/`res`. */
export type Services = {
  config: Config;
  logger: Logger;
  upstream: Upstream;
  operators: OperatorStore;
  sessions: SessionStore;
  journal: JournalStore;
  logs: LogStore;
  settings: SettingsStore;
  throttle: LoginThrottle;
  now: () => number;
};

/**
 * An `onAttempt` hook writing each upstream attempt to the request log, and to the log stream:
 * at info when it was retried, failed or answered 5xx; a plain first-attempt answer only at
 * debug (the request line and the request_log row already record it).
 */
export function recordAttempts(
  services: Pick<Services, 'logs' | 'logger' | 'now'>,
  context: { operator: string | null; operation: string; operationId: string | null },
) {
  return (record: AttemptRecord): void => {
    const path = record.target.split('?')[0] ?? record.target;
    services.logs.request({
      at: services.now(),
      operator: context.operator,
      operation: context.operation,
      operationId: context.operationId,
      method: record.method,
      path: record.target,
      attempt: record.attempt,
      status: record.status,
      durationMs: record.durationMs,
      requestIdSent: record.requestIdSent,
      upstreamRequestId: record.upstreamRequestId,
      correlationId: record.correlationId,
      idempotencyKey: record.idempotencyKey,
      error: record.error,
      keyId: record.signed?.keyId ?? null,
      signedTimestamp: record.signed?.timestamp ?? null,
      nonce: record.signed?.nonce ?? null,
      bodyHash: record.signed?.bodyHash ?? null,
      upstreamDate: record.upstreamDate,
      errorCode: record.upstreamError?.code ?? null,
      errorMessage: record.upstreamError?.message ?? null,
      errorDetails: record.upstreamError ? JSON.stringify(record.upstreamError.details) : null,
    });
    const isPlain =
      record.attempt === 1 &&
      record.error === null &&
      record.status !== null &&
      record.status < 500;
    const level = isPlain ? 'debug' : 'info';
    // Nearly every read is a plain first attempt at `debug`, off in production: no line object.
    if (!services.logger.isLevelEnabled(level)) return;
    fixedFieldLogger(services.logger)[level](
      {
        operator: context.operator,
        operation: context.operation,
        method: record.method,
        path,
        attempt: record.attempt,
        status: record.status,
        ms: record.durationMs,
        requestIdSent: record.requestIdSent,
        upstreamRequestId: record.upstreamRequestId,
        correlationId: record.correlationId,
        idempotencyKey: record.idempotencyKey,
        error: record.error,
      },
      'upstream call',
    );
  };
}
