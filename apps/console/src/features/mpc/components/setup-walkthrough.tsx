import { clsx } from 'clsx';
import type { ReactNode } from 'react';
import type { SetupStep, StepId, StepState } from '../model/setup-steps';

const stateText: Record<StepState, string> = {
  done: 'Done',
  current: 'In progress',
  failed: 'Needs attention',
  pending: 'Waiting',
};

const marker: Record<StepState, string> = {
  done: 'bg-emerald-600 text-white',
  current: 'bg-indigo-700 text-white',
  failed: 'bg-red-700 text-white',
  pending: 'bg-slate-200 text-slate-700',
};

/** The five setup steps; `actions` puts controls (buttons) under a step. */
export function SetupWalkthrough({
  steps,
  actions,
}: {
  steps: SetupStep[];
  actions: Partial<Record<StepId, ReactNode>>;
}) {
  return (
    <ol className="divide-y divide-slate-100" aria-label="Setup steps">
      {steps.map((step, index) => (
        <li
          key={step.id}
          className="flex gap-4 p-4"
          aria-current={step.state === 'current' ? 'step' : undefined}
        >
          <span
            aria-hidden="true"
            className={clsx(
              'flex size-7 shrink-0 items-center justify-center rounded-full text-sm font-semibold',
              marker[step.state],
            )}
          >
            {step.state === 'done' ? '✓' : index + 1}
          </span>
          <div className="min-w-0 flex-1">
            <div className="flex flex-wrap items-center gap-2">
              <h3 className="text-sm font-semibold text-slate-900">{step.title}</h3>
              <span
                className={clsx(
                  'text-xs font-medium',
                  step.state === 'done' && 'text-emerald-800',
                  step.state === 'current' && 'text-indigo-800',
                  step.state === 'failed' && 'text-red-800',
                  step.state === 'pending' && 'text-slate-600',
                )}
                data-testid={`step-${step.id}-state`}
              >
                {stateText[step.state]}
              </span>
            </div>
            <p className="mt-1 text-sm text-slate-700">{step.detail}</p>
            {actions[step.id] ? (
              <div className="mt-3 flex flex-wrap items-center gap-2">{actions[step.id]}</div>
            ) : null}
          </div>
        </li>
      ))}
    </ol>
  );
}
