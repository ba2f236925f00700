import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { CopyButton } from './copy-button';

/** The page's one live region (no role of its own). */
function announcer(): Element {
  const regions = document.querySelectorAll('[aria-live="polite"]');
  expect(regions).toHaveLength(1);
  return regions[0] as Element;
}

describe('CopyButton', () => {
  it('says "Copied" only for the value it copied, also when handed another value in place', async () => {
    const user = userEvent.setup();
    const { rerender } = render(<CopyButton value="ref-1" label="client reference" />);
    const button = screen.getByRole('button', { name: 'Copy client reference' });
    await user.click(button);
    expect(await navigator.clipboard.readText()).toBe('ref-1');
    await waitFor(() => {
      expect(button).toHaveTextContent('Copied');
    });
    expect(announcer()).toHaveTextContent('client reference copied');

    // A recycled list row hands the same button another reference: it was not copied.
    rerender(<CopyButton value="ref-2" label="client reference" />);
    expect(screen.getByRole('button', { name: 'Copy client reference' })).toBe(button);
    expect(button).toHaveTextContent(/^Copy$/);
    expect(announcer()).toBeEmptyDOMElement();

    await user.click(button);
    expect(await navigator.clipboard.readText()).toBe('ref-2');
    await waitFor(() => {
      expect(button).toHaveTextContent('Copied');
    });
  });

  it('announces through one live region for the page, not one per button', async () => {
    const user = userEvent.setup();
    render(
      <>
        {['a', 'b', 'c'].map((value) => (
          <CopyButton key={value} value={value} label={`id ${value}`} />
        ))}
      </>,
    );
    expect(announcer()).toBeEmptyDOMElement();
    // The copy resolves after the click (the clipboard is a promise), so the message comes later.
    await user.click(screen.getByRole('button', { name: 'Copy id b' }));
    await waitFor(() => {
      expect(announcer()).toHaveTextContent(/^id b copied$/);
    });
    await user.click(screen.getByRole('button', { name: 'Copy id c' }));
    await waitFor(() => {
      expect(announcer()).toHaveTextContent(/^id c copied$/);
    });
  });
});
