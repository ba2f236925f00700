import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { CopyButton } from './copy-button';

describe('CopyButton', () => {
  it('says "Copied" only for the value it copied, also when handed another value in place', async () => {
    const user = userEvent.setup();
    const { rerender } = render(<CopyButton value="ref-1" label="client reference" />);
    const button = screen.getByRole('button', { name: 'Copy client reference' });
    await user.click(button);
    expect(await navigator.clipboard.readText()).toBe('ref-1');
    expect(button).toHaveTextContent('Copied');

    // A recycled list row hands the same button another reference: it was not copied.
    rerender(<CopyButton value="ref-2" label="client reference" />);
    expect(screen.getByRole('button', { name: 'Copy client reference' })).toBe(button);
    expect(button).toHaveTextContent(/^Copy$/);
    expect(screen.queryByText('client reference copied')).not.toBeInTheDocument();

    await user.click(button);
    expect(await navigator.clipboard.readText()).toBe('ref-2');
    expect(button).toHaveTextContent('Copied');
  });
});
