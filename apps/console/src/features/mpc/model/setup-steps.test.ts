import type { MpcStatus } from '@settlement/protocol';
import { describe, expect, it } from 'vitest';
import { isSetupComplete, setupSteps } from './setup-steps';

const status = (overrides: Partial<MpcStatus> = {}): MpcStatus => ({
  orgId: 'org',
  keyId: null,
  keyStatus: null,
  coSigner: { status: 'OFFLINE', lastSeenAt: null },
  chains: [{ chain: 'tron:nile', ready: false, reason: 'The MPC key is not initialized.' }],
  ...overrides,
});
const healthy = { reachable: true, ok: true, httpStatus: 200, checkedAt: '2026-01-01T00:00:00Z' };
const states = (steps: ReturnType<typeof setupSteps>) => steps.map((s) => s.state);

describe('setupSteps', () => {
  it('starts at "install" and explains an unhealthy answer', () => {
    const steps = setupSteps({
      health: { reachable: true, ok: false, httpStatus: 503, checkedAt: '2026-01-01T00:00:00Z' },
      status: status(),
      targetChain: 'tron:nile',
    });
    expect(states(steps)).toEqual(['failed', 'pending', 'pending', 'pending', 'pending']);
    expect(steps[0]!.detail).toMatch(/HTTP 503/);
  });

  it('healthy but not Online points at the Online step', () => {
    const steps = setupSteps({ health: healthy, status: status(), targetChain: 'tron:nile' });
    expect(states(steps)).toEqual(['done', 'done', 'failed', 'pending', 'pending']);
  });

  it('Online and uninitialized makes initialize the current step', () => {
    const online = status({ coSigner: { status: 'ONLINE', lastSeenAt: '2026-01-01T00:00:00Z' } });
    expect(
      states(setupSteps({ health: healthy, status: online, targetChain: 'tron:nile' })),
    ).toEqual(['done', 'done', 'done', 'current', 'pending']);
  });

  it('waits while provisioning and completes when the key and the target chain are ready', () => {
    const coSigner = { status: 'ONLINE' as const, lastSeenAt: '2026-01-01T00:00:00Z' };
    const provisioning = status({ coSigner, keyId: 'k', keyStatus: 'PROVISIONING' });
    const waiting = setupSteps({ health: healthy, status: provisioning, targetChain: 'tron:nile' });
    expect(waiting[4]).toMatchObject({
      state: 'current',
      detail: expect.stringMatching(/every 2 seconds/),
    });
    const ready = status({
      coSigner,
      keyId: 'k',
      keyStatus: 'ACTIVE',
      chains: [{ chain: 'tron:nile', ready: true, reason: null }],
    });
    expect(
      isSetupComplete(setupSteps({ health: healthy, status: ready, targetChain: 'tron:nile' })),
    ).toBe(true);
  });

  it('after the Co-Signer is stopped, step 1 is not done and step 5 waits for it, in whole sentences', () => {
    const stopped = status({
      coSigner: { status: 'OFFLINE', lastSeenAt: '2026-01-01T00:00:00Z' },
      keyId: 'k',
      keyStatus: 'ACTIVE',
      chains: [{ chain: 'tron:nile', ready: false, reason: 'The Co-Signer is offline.' }],
    });
    const steps = setupSteps({
      health: { reachable: true, ok: false, httpStatus: 503, checkedAt: '2026-01-01T00:00:00Z' },
      status: stopped,
      targetChain: 'tron:nile',
    });
    expect(states(steps)).toEqual(['failed', 'pending', 'pending', 'done', 'pending']);
    expect(steps[0]!.detail).toMatch(/stopped now.*Start it again\.$/);
    expect(steps[4]!.detail).toBe(
      'Waiting for the Co-Signer to be Online: the key is ACTIVE and tron:nile is not ready. The Co-Signer is offline.',
    );
    for (const step of steps) expect(step.detail).not.toMatch(/\.\.|\s$/);
  });

  it('a reason without a full stop gets exactly one', () => {
    const coSigner = { status: 'ONLINE' as const, lastSeenAt: '2026-01-01T00:00:00Z' };
    const notEnabled = status({
      coSigner,
      keyId: 'k',
      keyStatus: 'ACTIVE',
      chains: [{ chain: 'tron:nile', ready: false, reason: 'tron:nile is not enabled' }],
    });
    const steps = setupSteps({ health: healthy, status: notEnabled, targetChain: 'tron:nile' });
    expect(steps[4]).toMatchObject({
      state: 'current',
      detail: 'The key is ACTIVE; tron:nile is not ready. tron:nile is not enabled.',
    });
  });
});
