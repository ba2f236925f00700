import { screen } from '@testing-library/react';
import { expect, vi } from 'vitest';
import { SLOW_ANSWER_MS } from '../lib/use-is-slow';

/**
 * With fake timers on and a read held: nothing is said before SLOW_ANSWER_MS, then the line
 * that the console is still waiting.
 */
export async function expectStillWaitingOnceSlow(): Promise<void> {
  expect(screen.queryByText(/still waiting/i)).not.toBeInTheDocument();
  await vi.advanceTimersByTimeAsync(SLOW_ANSWER_MS);
  expect(await screen.findByText('Still waiting for the settlement service…')).toBeInTheDocument();
}
