import { PolicyDocumentSchema, type Policy } from '@settlement/protocol';
import { useState } from 'react';
import { Button } from '../../../components/ui/button';
import { ErrorPanel } from '../../../components/ui/error-panel';
import { TextAreaField } from '../../../components/ui/field';
import { isApiError } from '../../../lib/api-client';
import { useSavePolicyMutation } from '../api/save-policy';

function documentText(policy: Policy): string {
  const { rules, limits, settings } = policy;
  return JSON.stringify({ rules, limits, settings }, null, 2);
}

/** Messages of the document as typed: JSON syntax, then the contract's schema. */
function localProblems(text: string): string[] {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return [`Not valid JSON: ${error instanceof Error ? error.message : String(error)}`];
  }
  const parsed = PolicyDocumentSchema.safeParse(value);
  if (parsed.success) return [];
  return parsed.error.issues.map(
    (issue) => `${issue.path.join('.') || 'policy'}: ${issue.message}`,
  );
}

/** Messages the BFF gave for a refused document (each names its rule or limit). */
function serverProblems(error: unknown): string[] {
  if (!isApiError(error) || error.code !== 'VALIDATION_ERROR') return [];
  return error.details.flatMap((detail) =>
    typeof detail === 'object' &&
    detail !== null &&
    typeof Reflect.get(detail, 'message') === 'string'
      ? [String(Reflect.get(detail, 'message'))]
      : [],
  );
}

/** The whole document as JSON; the BFF validates it (references, reachability) on save. */
export function PolicyEditor({ policy, onSaved }: { policy: Policy; onSaved: () => void }) {
  const [text, setText] = useState(() => documentText(policy));
  const save = useSavePolicyMutation();
  const problems = localProblems(text);
  const fromServer = serverProblems(save.error);

  return (
    <form
      className="space-y-3 p-4"
      onSubmit={(event) => {
        event.preventDefault();
        if (problems.length > 0) return;
        save.mutate(JSON.parse(text) as Parameters<typeof save.mutate>[0], { onSuccess: onSaved });
      }}
    >
      <TextAreaField
        label="Policy document (rules, limits, settings)"
        hint="Rules are tried in order; the first that matches decides. Amounts are atomic integer strings."
        value={text}
        rows={18}
        spellCheck={false}
        error={problems[0] ?? null}
        onChange={(event) => {
          setText(event.target.value);
        }}
      />
      {problems.length > 1 || fromServer.length > 0 ? (
        <ul
          aria-label="Validation messages"
          className="list-disc space-y-1 pl-5 text-sm text-red-800"
        >
          {[...problems.slice(1), ...fromServer].map((message) => (
            <li key={message}>{message}</li>
          ))}
        </ul>
      ) : null}
      {save.isError && fromServer.length === 0 ? <ErrorPanel error={save.error} /> : null}
      <div className="flex gap-2">
        <Button type="submit" variant="primary" disabled={save.isPending || problems.length > 0}>
          Save as new version
        </Button>
        <Button
          type="button"
          onClick={() => {
            setText(documentText(policy));
            save.reset();
          }}
        >
          Reset
        </Button>
      </div>
    </form>
  );
}
