import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import type { Filters } from '../../lib/paging';
import { TextField } from './field';
import { FilterForm } from './filter-form';

function NameFilter({
  filters,
  onChange,
}: {
  filters: Filters<'name'>;
  onChange: (filters: Filters<'name'>) => void;
}) {
  return (
    <FilterForm
      label="Filter things"
      filters={filters}
      onChange={onChange}
      className="grid"
      actionsClassName="flex"
    >
      {(draft, set) => (
        <TextField
          label="Name"
          value={draft.name ?? ''}
          onChange={(event) => {
            set('name', event.target.value);
          }}
        />
      )}
    </FilterForm>
  );
}

describe('FilterForm', () => {
  it('hands the edited draft on only when "Apply filters" is pressed', async () => {
    const onChange = vi.fn();
    render(<NameFilter filters={{}} onChange={onChange} />);
    expect(screen.getByRole('search', { name: 'Filter things' })).toBeInTheDocument();
    await userEvent.type(screen.getByLabelText('Name'), 'alice');
    expect(onChange).not.toHaveBeenCalled();
    await userEvent.click(screen.getByRole('button', { name: 'Apply filters' }));
    expect(onChange).toHaveBeenCalledWith({ name: 'alice' });
  });

  it('offers "Clear" only while a filter is applied, and clearing empties draft and filters', async () => {
    const onChange = vi.fn();
    const { unmount } = render(<NameFilter filters={{}} onChange={onChange} />);
    expect(screen.queryByRole('button', { name: 'Clear' })).not.toBeInTheDocument();
    unmount();
    render(<NameFilter filters={{ name: 'bob' }} onChange={onChange} />);
    expect(screen.getByLabelText('Name')).toHaveValue('bob');
    await userEvent.click(screen.getByRole('button', { name: 'Clear' }));
    expect(onChange).toHaveBeenCalledWith({});
    expect(screen.getByLabelText('Name')).toHaveValue('');
  });
});
