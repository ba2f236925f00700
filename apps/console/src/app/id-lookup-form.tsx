import { useState } from 'react';
import type { SubmitEvent } from 'react';
import { Button } from '../components/ui/button';
import { TextField } from '../components/ui/field';
import { cleanSupportQuery } from '../features/support/api/support-search';

/** The one-box id look-up of Support and Timeline: pasted ids lose blanks and invisibles. */
export function IdLookupForm({
  initial,
  onSubmit,
  formLabel,
  fieldLabel,
  submitLabel,
}: {
  initial: string;
  onSubmit: (q: string) => void;
  formLabel: string;
  fieldLabel: string;
  submitLabel: string;
}) {
  const [text, setText] = useState(initial);
  const handleSubmit = (event: SubmitEvent) => {
    event.preventDefault();
    onSubmit(cleanSupportQuery(text));
  };
  return (
    <form
      role="search"
      aria-label={formLabel}
      onSubmit={handleSubmit}
      className="mb-6 flex items-end gap-3"
    >
      <div className="max-w-2xl flex-1">
        <TextField
          label={fieldLabel}
          type="search"
          value={text}
          onChange={(event) => {
            setText(event.target.value);
          }}
          className="font-mono"
          spellCheck={false}
        />
      </div>
      <Button type="submit" variant="primary">
        {submitLabel}
      </Button>
    </form>
  );
}
