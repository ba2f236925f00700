import type { QueryClient } from '@tanstack/react-query';
import { StrictMode, startTransition } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { meQuery } from '../../features/session/api/me';
import { Providers, createConsoleQueryClient } from '../providers';
import { createAppRouter, startLandingPageImport } from '../router';
import { yieldToMain } from './yield-to-main';

type AppRouter = ReturnType<typeof createAppRouter>;

/** Settles once the session probe has an answer, whatever it is (the gate shows failures). */
function probeAnswered(queryClient: QueryClient): Promise<unknown> {
  return queryClient.query({ ...meQuery(), staleTime: 'static' }).catch(() => undefined);
}

/** Settles once the router has loaded the matched page (its lazy module and loaders). */
function routerReady(router: AppRouter): Promise<void> {
  if (router.state.initialized) return Promise.resolve();
  return new Promise((resolve) => {
    const unsubscribe = router.subscribe((state) => {
      if (!state.initialized) return;
      unsubscribe();
      resolve();
    });
  });
}

/**
 * Starts the console in steps, each its own task: the query client (which sends the session
 * probe), then the router (route matching and the first page's lazy import), then the first
 * render, in a transition so React renders in ~5 ms slices instead of one task. Done in one
 * task, the three were one long task of 150-480 ms under Lighthouse's 4x CPU slowdown, all of it
 * blocking time (TBT) and in the way of the overview's first paint (LCP).
 * The first step waits a task too: called from the entry module, it would otherwise run in the
 * task that evaluated every module of the entry (~150 ms under 4x, a third of it this step). The
 * session probe's request is already on its way by then (index.html preloads it).
 * The first render waits for the session probe and the matched page's module: until both are
 * in, it could only show "Loading the console…", which index.html already shows; rendered
 * before, their arrival re-rendered the shell and page in one synchronous task each (query
 * updates go through useSyncExternalStore, which React never time-slices).
 * The placeholder from index.html stays on screen until React commits.
 * The landing page's chunk is requested in the first step, before the query client and the
 * router, beside the session probe.
 * Resolves to the root once the first render is scheduled (tests unmount it).
 */
export async function startConsole(
  container: HTMLElement,
  nextTask: () => Promise<void> = yieldToMain,
  importLandingPage: (pathname: string) => void = startLandingPageImport,
): Promise<Root> {
  await nextTask();
  // The landing page's chunk is requested first, beside the session probe (see
  // startLandingPageImport): both are on the way to the first render.
  importLandingPage(window.location.pathname);
  const queryClient = createConsoleQueryClient();
  await nextTask();
  const router = createAppRouter(queryClient);
  await Promise.all([probeAnswered(queryClient), routerReady(router)]);
  await nextTask();
  const root = createRoot(container);
  startTransition(() => {
    root.render(
      <StrictMode>
        <Providers queryClient={queryClient} router={router} />
      </StrictMode>,
    );
  });
  return root;
}
