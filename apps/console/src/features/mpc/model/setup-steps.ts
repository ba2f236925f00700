import type { MpcStatus } from '@settlement/protocol';
import type { CoSignerHealth } from '../api/co-signer-health';

export type StepState = 'done' | 'current' | 'failed' | 'pending';
export type StepId = 'install' | 'health' | 'online' | 'initialize' | 'ready';

export type SetupStep = { id: StepId; title: string; state: StepState; detail: string };

export type SetupInputs = {
  health: CoSignerHealth | undefined;
  status: MpcStatus | undefined;
  targetChain: string;
};

/**
 * The interface's operational sequence, each step with its live verification state:
 * install and start the Co-Signer, confirm its local health endpoint, confirm Online,
 * initialize once, poll until the key and the target chain are ready.
 */
export function setupSteps({ health, status, targetChain }: SetupInputs): SetupStep[] {
  const isOnline = status?.coSigner.status === 'ONLINE';
  const hasBeenSeen = Boolean(status?.coSigner.lastSeenAt);
  const isReachable = health?.reachable ?? false;
  const isHealthy = isReachable && (health?.ok ?? false);
  const keyStatus = status?.keyStatus ?? null;
  const chain = status?.chains.find((c) => c.chain === targetChain);
  const isChainReady = keyStatus === 'ACTIVE' && (chain?.ready ?? false);

  // Running is a fact about now: a Co-Signer seen yesterday and stopped since is not running.
  const isRunning = isHealthy || isOnline;
  const install: SetupStep = {
    id: 'install',
    title: 'Install and start the Co-Signer',
    state: isRunning ? 'done' : health ? 'failed' : 'current',
    detail: isRunning
      ? 'The Co-Signer process is running.'
      : hasBeenSeen && health
        ? `The Co-Signer ran before and is stopped now${isReachable ? ` (its health endpoint answers HTTP ${health.httpStatus ?? '?'})` : ''}. Start it again.`
        : isReachable
          ? `The health endpoint answers HTTP ${health?.httpStatus ?? '?'}: the Co-Signer is not running or not healthy yet. Start it on its host.`
          : health
            ? 'Nothing answers at the Co-Signer health address yet. Install the Co-Signer on the host your organization runs it on and start it.'
            : 'Checking whether the Co-Signer is running…',
  };
  const healthStep: SetupStep = {
    id: 'health',
    title: 'Confirm its local health endpoint',
    state: isHealthy ? 'done' : isRunning ? 'failed' : 'pending',
    detail: isHealthy
      ? `Healthy (HTTP ${health?.httpStatus ?? 200}).`
      : isRunning
        ? isReachable
          ? `The health endpoint answers HTTP ${health?.httpStatus ?? '?'}. Check the Co-Signer's logs and configuration.`
          : 'The health endpoint is not reachable from the console server. Check the configured health address and the network path.'
        : 'Waiting for the Co-Signer to start.',
  };
  const online: SetupStep = {
    id: 'online',
    title: 'Confirm Online',
    state: isOnline ? 'done' : isHealthy ? 'failed' : 'pending',
    detail: isOnline
      ? 'The service sees the Co-Signer Online.'
      : isHealthy
        ? 'The Co-Signer is healthy locally but the service does not see it Online. Check its network access and API credentials.'
        : 'Waiting for a healthy Co-Signer.',
  };
  const initialize: SetupStep = {
    id: 'initialize',
    title: 'Initialize the MPC key (once)',
    state: keyStatus !== null ? 'done' : isOnline ? 'current' : 'pending',
    detail:
      keyStatus !== null
        ? keyStatus === 'ACTIVE'
          ? `Key ${status?.keyId ?? ''} is ACTIVE.`
          : `Key ${status?.keyId ?? ''} requested; it is ${keyStatus}.`
        : isOnline
          ? 'Start the MPC key ceremony. It uses one durable key for this organization, so repeating it is safe.'
          : 'Available once the Co-Signer is Online.',
  };
  const notReady = sentence(chain?.reason ?? 'no reason given');
  const ready: SetupStep = {
    id: 'ready',
    title: `Wait until the key and ${targetChain} are ready`,
    // Without an Online Co-Signer nothing moves here (provisioning waits too): step 3 first.
    state: isChainReady
      ? 'done'
      : keyStatus === null
        ? 'pending'
        : isOnline
          ? 'current'
          : 'pending',
    detail: isChainReady
      ? `The key is ACTIVE and ${targetChain} is ready. Wallets and withdrawals can be created.`
      : keyStatus === null
        ? 'Waiting for initialization.'
        : !isOnline
          ? `Waiting for the Co-Signer to be Online: the key is ${keyStatus} and ${targetChain} is not ready. ${notReady}`
          : keyStatus === 'PROVISIONING'
            ? 'The key is provisioning. This page checks every 2 seconds.'
            : `The key is ACTIVE; ${targetChain} is not ready. ${notReady}`,
  };
  return [install, healthStep, online, initialize, ready];
}

/** Ends a reason from the service with exactly one full stop (it may bring its own). */
function sentence(text: string): string {
  const trimmed = text.trim();
  return /[.!?]$/.test(trimmed) ? trimmed : `${trimmed}.`;
}

export function isSetupComplete(steps: SetupStep[]): boolean {
  return steps.every((step) => step.state === 'done');
}
