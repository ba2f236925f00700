type SchedulerWithYield = { yield?: () => Promise<void> };

/**
 * Ends the current task and resumes in a new one, so the browser can paint and handle input in
 * between: `scheduler.yield()` where Chromium has it (the continuation runs before other queued
 * tasks), else a zero-delay timeout.
 */
export function yieldToMain(): Promise<void> {
  const scheduler = (globalThis as { scheduler?: SchedulerWithYield }).scheduler;
  if (typeof scheduler?.yield === 'function') return scheduler.yield();
  return new Promise((resolve) => setTimeout(resolve, 0));
}
