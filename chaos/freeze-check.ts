import { z } from 'zod';
import { codeOf, isAnswer, type CallSpan } from './bff-client';
import type { FrozenSpan, Managed } from './processes';
import { UPSTREAM_BUDGET_MS } from './schedule';

/**
 * The freeze invariant. While the sandbox was frozen (alive, accepting connections, answering
 * nothing) and no BFF was, every operator call must have had an HTTP answer before the
 * workload's own timeout: a real one, or the retryable 503 the BFF owes once its upstream budget
 * (UPSTREAM_BUDGET_MS, under that timeout) is spent. A call that also met a frozen BFF is left
 * out: a frozen BFF answers nothing, by design. Each call is judged when its reply arrives; every
 * freeze that overlapped it had begun by then.
 */

type Watched = Pick<Managed, 'frozen'>;

const RetryableSchema = z.looseObject({ retryable: z.literal(true) });

function overlaps(spans: readonly FrozenSpan[], call: CallSpan): boolean {
  return spans.some(
    (span) => span.fromMs < call.endedMs && (span.toMs === null || span.toMs > call.startedMs),
  );
}

export function createFreezeCheck(processes: { sandbox: Watched; bffs: readonly Watched[] }) {
  const problems: string[] = [];
  // By answer: "200", "503 UPSTREAM_UNAVAILABLE", "no answer", ...
  const answers = new Map<string, number>();
  const tally = (answer: string) => answers.set(answer, (answers.get(answer) ?? 0) + 1);
  let calls = 0;
  let besideFrozenBff = 0;
  let slowestMs = 0;
  return {
    problems,
    observe: (call: CallSpan): void => {
      if (!overlaps(processes.sandbox.frozen, call)) return;
      if (processes.bffs.some((bff) => overlaps(bff.frozen, call))) {
        besideFrozenBff += 1;
        return;
      }
      calls += 1;
      const tookMs = call.endedMs - call.startedMs;
      const { reply } = call;
      if (!isAnswer(reply)) {
        // Refused or reset: a BFF killed meanwhile. Only a call held to its timeout is a hang.
        if (tookMs < call.timeoutMs || call.timeoutMs <= UPSTREAM_BUDGET_MS) {
          tally('refused or reset');
          return;
        }
        tally('no answer');
        problems.push(
          `${call.method} ${call.path} to ${call.url} while the sandbox was frozen: no answer ` +
            `within ${call.timeoutMs / 1000} s (the BFF's upstream budget is ` +
            `${UPSTREAM_BUDGET_MS / 1000} s)`,
        );
        return;
      }
      slowestMs = Math.max(slowestMs, tookMs);
      const code = reply.status >= 400 ? codeOf(reply) : null;
      tally(code ? `${reply.status} ${code}` : String(reply.status));
      if (code === 'UPSTREAM_UNAVAILABLE' && !RetryableSchema.safeParse(reply.json).success) {
        problems.push(`${call.method} ${call.path}: ${reply.status} ${code} not retryable`);
      }
    },
    summary: (): string =>
      `${calls} calls met a frozen sandbox (${besideFrozenBff} more a frozen BFF too): ` +
      `${[...answers].map(([answer, n]) => `${answer} x${n}`).join(', ') || 'none'}; ` +
      `slowest answer ${(slowestMs / 1000).toFixed(1)} s`,
  };
}
