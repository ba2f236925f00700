import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { screen } from '@testing-library/react';
import { fillEarlyPaint } from '@settlement/protocol';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { FakeWebSocket } from '../../test/fake-web-socket';
import { renderWithApp, sessionFor } from '../../test/render';
import { startApiTestServer, type TestServer } from '../../test/test-server';
import { OverviewPage } from '../routes/overview/overview-page';
import { AppShell } from '../shell/app-shell';

/**
 * index.html's `signed-in-overview` template is what a signed-in operator sees of the overview
 * until the console's first render replaces it (the BFF fills it in: apps/bff static.ts). It
 * must be laid out as the shell and the page lay out, or the replacement moves the page, and a
 * description drawn larger than the early one is a new, later largest paint (LCP). These tests
 * hold its markup to the components'.
 */

const html = readFileSync(resolve(import.meta.dirname, '../../../index.html'), 'utf8');

/** The template's content, filled in as the BFF fills it for `session`. */
function earlyPaint(username: string, role: string, isSandbox = true): HTMLElement {
  const doc = new DOMParser().parseFromString(html, 'text/html');
  const template = doc.querySelector<HTMLTemplateElement>('template#signed-in-overview');
  if (!template) throw new Error('index.html has no signed-in-overview template');
  const host = document.createElement('div');
  host.innerHTML = fillEarlyPaint(template.innerHTML, { username, role, isSandbox });
  return host;
}

function classesOf(element: Element | null | undefined): string[] {
  return [...(element?.classList ?? [])];
}

function text(element: Element | null | undefined): string {
  return (element?.textContent ?? '').replace(/\s+/g, ' ').trim();
}

let server: TestServer;
beforeAll(async () => {
  vi.stubGlobal('WebSocket', FakeWebSocket);
  server = await startApiTestServer();
  server.route('GET', '/bff/withdrawal-requests*', () => ({ body: { items: [] } }));
  server.route('GET', '/bff/config', () => ({ body: { explorers: [] } }));
});
afterAll(async () => {
  vi.unstubAllGlobals();
  await server.close();
});

describe("index.html's early paint of the overview", () => {
  it("has the overview's page header: the same title and description, in the same boxes", async () => {
    const session = sessionFor('treasury');
    const early = earlyPaint(session.operator.username, session.operator.role);
    renderWithApp(<OverviewPage />, { session });
    const title = await screen.findByRole('heading', { level: 1, name: 'Overview' });
    const header = title.closest('header');
    const description = title.nextElementSibling;

    const earlyTitle = early.querySelector('main header h1');
    expect(text(earlyTitle)).toBe(text(title));
    expect(classesOf(earlyTitle)).toEqual(classesOf(title));
    expect(classesOf(earlyTitle?.parentElement)).toEqual(classesOf(title.parentElement));
    expect(classesOf(early.querySelector('main header'))).toEqual(classesOf(header));
    const earlyDescription = earlyTitle?.nextElementSibling;
    expect(text(earlyDescription)).toBe(text(description));
    expect(text(earlyDescription)).toContain('Signed in as treasury (treasury).');
    expect(classesOf(earlyDescription)).toEqual(classesOf(description));
  });

  it("sits where the shell puts the page: the main column's box, the top bar's height and the sidebar's width", async () => {
    const session = sessionFor('treasury');
    const early = earlyPaint(session.operator.username, session.operator.role);
    renderWithApp(<AppShell />, { session });
    const main = await screen.findByRole('main');
    expect(classesOf(early.querySelector('main'))).toEqual(
      classesOf(main).filter((name) => !name.startsWith('focus:')),
    );

    const [sidebar, column] = [...(early.firstElementChild?.children ?? [])];
    const aside = document.querySelector('aside');
    for (const name of ['hidden', 'w-56', 'shrink-0', 'lg:block']) {
      expect(classesOf(sidebar)).toContain(name);
      expect(classesOf(aside)).toContain(name);
    }

    // The top bar: its padding and border, and boxes as tall as its tallest control: the menu
    // button below lg; from lg the command palette's button (a flex box of small text, with the
    // keyboard hint's bordered box where there is a fine pointer).
    const header = column?.firstElementChild;
    const topBar = main.parentElement?.querySelector('header');
    expect(classesOf(header)).toContain('border-b');
    expect(classesOf(topBar)).toContain('border-b');
    const bar = header?.firstElementChild;
    for (const name of ['px-3', 'py-2', 'sm:px-6', 'sm:py-3']) {
      expect(classesOf(bar)).toContain(name);
      expect(classesOf(topBar?.firstElementChild)).toContain(name);
    }
    // On the sandbox, below md, the strip under the bar: the same box and words.
    const strip = header?.querySelector('p');
    const shellStrip = topBar?.querySelector('p');
    expect(classesOf(strip)).toEqual(classesOf(shellStrip));
    expect(text(strip)).toBe(text(shellStrip));
    const [belowLg, fromLg] = [...(bar?.children ?? [])];
    const menuButton = screen.getByRole('button', { name: 'Open menu' });
    for (const name of ['size-11', 'lg:hidden']) {
      expect(classesOf(belowLg)).toContain(name);
      expect(classesOf(menuButton)).toContain(name);
    }
    const paletteButton = screen.getByRole('button', { name: /go to/i });
    const box = fromLg?.firstElementChild;
    for (const name of ['py-1', 'text-xs']) {
      expect(classesOf(box)).toContain(name);
      expect(classesOf(paletteButton)).toContain(name);
    }
    expect(classesOf(paletteButton)).toContain('inline-flex');
    expect(classesOf(box)).toContain('flex');
    expect(classesOf(header?.lastElementChild)).toEqual(classesOf(shellStrip));
    const hint = paletteButton.querySelector('kbd');
    for (const name of ['hidden', 'border', 'sm:pointer-fine:inline']) {
      expect(classesOf(box?.querySelector('span'))).toContain(name);
      expect(classesOf(hint)).toContain(name);
    }
  });

  it('has no sandbox strip for a live upstream, as the shell has none', async () => {
    const session = sessionFor('treasury', 'remote');
    const early = earlyPaint(session.operator.username, session.operator.role, false);
    renderWithApp(<AppShell />, { session });
    const topBar = (await screen.findByRole('main')).parentElement?.querySelector('header');
    expect(topBar?.querySelector('p')).toBeNull();
    expect(early.querySelector('p')?.textContent ?? '').not.toMatch(/sandbox/i);
    expect(early.textContent).not.toMatch(/sandbox/i);
  });
});
