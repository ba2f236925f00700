import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { StatusTimeline } from './status-timeline';

describe('StatusTimeline', () => {
  it('says in words that a skipped step did not happen, and a done one was done', () => {
    render(
      <StatusTimeline
        milestones={[
          { key: 'signing', label: 'Signed by MPC', state: 'done', at: null, detail: null },
          { key: 'broadcast', label: 'Broadcast', state: 'skipped', at: null, detail: null },
        ]}
      />,
    );
    const [signed, broadcast] = screen.getAllByRole('listitem');
    expect(signed).toHaveTextContent('Signed by MPC (done)');
    expect(broadcast).toHaveTextContent('Broadcast (did not happen)');
    expect(broadcast).not.toHaveTextContent('done');
  });
});
