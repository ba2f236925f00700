import { CHAINS, TRANSACTION_STATUSES, TRANSACTION_TYPES } from '@settlement/protocol';
import { CreatedRangeFields, FilterForm } from '../../../components/ui/filter-form';
import { SelectField, TextField } from '../../../components/ui/field';
import {
  SuggestedIdField,
  resolveId,
  type IdSuggestion,
} from '../../../components/ui/suggested-id-field';
import type { TransactionFilters as Filters } from '../api/keys';

const any = { value: '', label: 'Any' };

export function TransactionFilters({
  filters,
  assets,
  suggestions,
  onChange,
}: {
  filters: Filters;
  assets: string[];
  /** Accounts and wallets offered by name in their id fields. */
  suggestions: { accounts: readonly IdSuggestion[]; wallets: readonly IdSuggestion[] };
  onChange: (filters: Filters) => void;
}) {
  return (
    <FilterForm
      label="Filter transactions"
      filters={filters}
      onChange={onChange}
      className="grid grid-cols-[repeat(auto-fill,minmax(13rem,1fr))] items-end gap-3 border-b border-slate-200 p-4"
      actionsClassName="flex gap-2"
      resolve={(applied) => ({
        ...applied,
        accountId: resolveId(applied.accountId ?? '', suggestions.accounts),
        walletId: resolveId(applied.walletId ?? '', suggestions.wallets),
      })}
    >
      {(draft, set, bind) => (
        <>
          <SelectField
            label="Status"
            {...bind('status')}
            options={[
              any,
              ...TRANSACTION_STATUSES.map((s) => ({ value: s, label: s.replaceAll('_', ' ') })),
            ]}
          />
          <SelectField
            label="Type"
            {...bind('type')}
            options={[
              any,
              ...TRANSACTION_TYPES.map((t) => ({ value: t, label: t.replaceAll('_', ' ') })),
            ]}
          />
          <SelectField
            label="Chain"
            {...bind('chain')}
            options={[any, ...CHAINS.map((c) => ({ value: c, label: c }))]}
          />
          <SelectField
            label="Asset"
            {...bind('asset')}
            options={[any, ...assets.map((a) => ({ value: a, label: a }))]}
          />
          <TextField label="Client reference" {...bind('clientReference', { trim: true })} />
          <SuggestedIdField
            label="Account"
            suggestions={suggestions.accounts}
            {...bind('accountId', { trim: true })}
          />
          <SuggestedIdField
            label="Wallet"
            suggestions={suggestions.wallets}
            {...bind('walletId', { trim: true })}
          />
          <CreatedRangeFields draft={draft} set={set} />
        </>
      )}
    </FilterForm>
  );
}
