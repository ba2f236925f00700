import { SimulatedChain } from '../chain/simulated-chain';
import { createCoSignerSimulator, type CoSignerSimulator } from '../co-signer/simulator';
import type { AppContext, BackgroundService } from '../context';
import { createLifecycle, DEFAULT_CO_SIGNER_TIMEOUT_MS } from './transactions-lifecycle';

export type MoneyMovementOptions = {
  /** Unsigned transactions FAIL with CO_SIGNER_TIMEOUT after this long (default 120 s). */
  coSignerTimeoutMs?: number;
  /** How often the Co-Signer simulator polls for intents (default: half a block, 25-500 ms). */
  coSignerPollMs?: number;
  /** false: no block timer; blocks only come from `chain.mineBlock()` (tests). */
  isChainTimerEnabled?: boolean;
  /** Wall time a block may spend stepping transactions (default: half a block). */
  blockBudgetMs?: number;
  /** Rows every block steps whatever its budget (default 64). */
  minStepsPerBlock?: number;
};

export type MoneyMovement = {
  chain: SimulatedChain;
  coSigner: CoSignerSimulator;
  service: BackgroundService;
};

/** The simulated chain, the transaction lifecycle on its blocks, and the Co-Signer simulator. */
export function createMoneyMovement(
  ctx: AppContext,
  options: MoneyMovementOptions = {},
): MoneyMovement {
  const chain = new SimulatedChain({
    db: ctx.db,
    blockMs: ctx.blockMs,
    now: ctx.nowMs,
    onError: (error) => {
      ctx.logger.error({ err: error }, 'block listener failed');
    },
  });
  const lifecycle = createLifecycle({
    db: ctx.db,
    now: ctx.nowMs,
    coSignerTimeoutMs: options.coSignerTimeoutMs ?? DEFAULT_CO_SIGNER_TIMEOUT_MS,
    // Half of each block interval stays free for requests (the Co-Signer's among them).
    blockBudgetMs: options.blockBudgetMs ?? ctx.blockMs / 2,
    ...(options.minStepsPerBlock === undefined
      ? {}
      : { minStepsPerBlock: options.minStepsPerBlock }),
    onError: (error, transactionId) => {
      ctx.logger.error({ err: error, transactionId }, 'transaction step failed');
    },
  });
  chain.onBlock((block) => {
    lifecycle.onBlock(block);
  });
  const coSigner = createCoSignerSimulator({
    db: ctx.db,
    logger: ctx.logger,
    nowMs: ctx.nowMs,
    pollMs: options.coSignerPollMs ?? Math.min(500, Math.max(25, Math.floor(ctx.blockMs / 2))),
  });
  return {
    chain,
    coSigner,
    service: {
      name: 'money-movement',
      start: ({ baseUrl }) => {
        if (options.isChainTimerEnabled !== false) chain.start();
        coSigner.start(baseUrl);
      },
      stop: async () => {
        chain.stop();
        await coSigner.stop();
      },
    },
  };
}
