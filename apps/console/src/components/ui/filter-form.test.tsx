import { fireEvent, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { screenIs } from '../../test/screen-width';
import type { Filters } from '../../lib/paging';
import { TextField } from './field';
import { CreatedRangeFields, FilterForm } from './filter-form';

function NameFilter({
  filters,
  onChange,
}: {
  filters: Filters<'name' | 'id'>;
  onChange: (filters: Filters<'name' | 'id'>) => void;
}) {
  return (
    <FilterForm
      label="Filter things"
      filters={filters}
      onChange={onChange}
      className="grid"
      actionsClassName="flex"
    >
      {(_draft, _set, bind) => (
        <>
          <TextField label="Name" {...bind('name')} />
          <TextField label="Id" {...bind('id', { trim: true })} />
        </>
      )}
    </FilterForm>
  );
}

describe('FilterForm', () => {
  it('binds fields to the draft, trimming only the fields asked to', async () => {
    const onChange = vi.fn();
    render(<NameFilter filters={{ name: 'bob' }} onChange={onChange} />);
    expect(screen.getByLabelText('Name')).toHaveValue('bob');
    await userEvent.type(screen.getByLabelText('Name'), ' jr ');
    await userEvent.type(screen.getByLabelText('Id'), ' acc_1 ');
    await userEvent.click(screen.getByRole('button', { name: 'Apply filters' }));
    expect(onChange).toHaveBeenCalledWith({ name: 'bob jr ', id: 'acc_1' });
    expect(screen.getByLabelText('Id')).toHaveValue('acc_1');
  });

  it('trims when the filters are applied, so a space typed inside a value stays', async () => {
    const onChange = vi.fn();
    render(<NameFilter filters={{}} onChange={onChange} />);
    await userEvent.type(screen.getByLabelText('Id'), 'op a/b ');
    expect(screen.getByLabelText('Id')).toHaveValue('op a/b ');
    await userEvent.click(screen.getByRole('button', { name: 'Apply filters' }));
    expect(onChange).toHaveBeenCalledWith({ id: 'op a/b' });
  });

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

describe('CreatedRangeFields', () => {
  it('keeps the local date-times as ISO instants and shows applied ones back', async () => {
    const onChange = vi.fn();
    const from = '2026-01-02T03:04';
    const filters: Filters<'createdFrom' | 'createdTo'> = {
      createdTo: new Date('2026-02-03T04:05').toISOString(),
    };
    render(
      <FilterForm
        label="Filter by date"
        filters={filters}
        onChange={onChange}
        className="grid"
        actionsClassName="flex"
      >
        {(draft, set) => <CreatedRangeFields draft={draft} set={set} />}
      </FilterForm>,
    );
    expect(screen.getByLabelText('Created to')).toHaveValue('2026-02-03T04:05');
    fireEvent.change(screen.getByLabelText('Created from'), { target: { value: from } });
    await userEvent.click(screen.getByRole('button', { name: 'Apply filters' }));
    expect(onChange).toHaveBeenCalledWith({
      createdFrom: new Date(from).toISOString(),
      createdTo: new Date('2026-02-03T04:05').toISOString(),
    });
  });
});

describe('FilterForm on a phone', () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it('folds the fields under one line that counts the filters applied', async () => {
    screenIs('phone');
    render(<NameFilter filters={{ name: 'bob', id: 'acc_1' }} onChange={vi.fn()} />);
    const fold = screen.getByText('Filters').closest('summary');
    expect(fold).toHaveTextContent('Filters · 2 applied');
    expect(screen.getByLabelText('Name')).not.toBeVisible();
    await userEvent.click(fold!);
    expect(screen.getByLabelText('Name')).toBeVisible();
  });

  it('shows the fields as they are on a wide screen', () => {
    screenIs('desktop');
    render(<NameFilter filters={{}} onChange={vi.fn()} />);
    expect(screen.queryByText('Filters')).not.toBeInTheDocument();
    expect(screen.getByLabelText('Name')).toBeVisible();
  });
});
