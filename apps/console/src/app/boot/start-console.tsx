import { StrictMode, startTransition } from 'react';
import { createRoot } from 'react-dom/client';
import { Providers, createConsoleQueryClient } from '../providers';
import { createAppRouter } from '../router';
import { yieldToMain } from './yield-to-main';

/**
 * Starts the console in steps, each its own task: the query client (which sends the session
 * probe), then the router (route matching and the first page's lazy import), then the first
 * render, in a transition so React renders in ~5 ms slices instead of one task. Done in one
 * task, the three were one long task of 150-480 ms under Lighthouse's 4x CPU slowdown, all of it
 * blocking time (TBT) and in the way of the overview's first paint (LCP).
 * The placeholder from index.html stays on screen until React commits.
 */
export async function startConsole(
  container: HTMLElement,
  nextTask: () => Promise<void> = yieldToMain,
): Promise<void> {
  const queryClient = createConsoleQueryClient();
  await nextTask();
  const router = createAppRouter(queryClient);
  await nextTask();
  const root = createRoot(container);
  startTransition(() => {
    root.render(
      <StrictMode>
        <Providers queryClient={queryClient} router={router} />
      </StrictMode>,
    );
  });
}
