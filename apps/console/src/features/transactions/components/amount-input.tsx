import { atomicToDisplay } from '@settlement/protocol';
import { Button } from '../../../components/ui/button';
import { TextField } from '../../../components/ui/field';
import { parseAmount } from '../model/withdrawal-math';

/** Amount in display units, converted exactly to atomic as it is typed; Max leaves room for the fee. */
export function AmountInput({
  value,
  onChange,
  decimals,
  asset,
  maxAtomic,
  extraProblem,
  disabled,
}: {
  value: string;
  onChange: (value: string) => void;
  decimals: number;
  asset: string;
  maxAtomic: bigint | null;
  extraProblem?: string | null;
  disabled?: boolean;
}) {
  const { atomic, problem } = parseAmount(value, decimals);
  const hint =
    atomic !== null
      ? `= ${atomic.toString()} atomic units (${decimals} decimals)`
      : `Up to ${decimals} decimal places.`;
  return (
    <div className="flex items-start gap-2">
      <div className="flex-1">
        <TextField
          label={`Amount (${asset})`}
          inputMode="decimal"
          autoComplete="off"
          value={value}
          onChange={(event) => {
            onChange(event.target.value.trim());
          }}
          error={problem ?? extraProblem ?? null}
          hint={hint}
          className="font-mono tabular-nums"
          disabled={disabled}
        />
      </div>
      <Button
        className="mt-6"
        disabled={disabled || maxAtomic === null || maxAtomic === 0n}
        onClick={() => {
          if (maxAtomic !== null) onChange(atomicToDisplay(maxAtomic, decimals));
        }}
        aria-label={`Use the maximum amount${maxAtomic !== null ? ` (${atomicToDisplay(maxAtomic, decimals)} ${asset})` : ''}`}
      >
        Max
      </Button>
    </div>
  );
}
