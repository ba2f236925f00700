import type { ExportSubject } from '@settlement/protocol';
import { useEffect, useRef, useState } from 'react';
import { apiDownload, withQuery } from '../../lib/api-client';
import { createCsvCounter, formatBytes, type CsvProgress } from '../../lib/csv-progress';
import { Button } from './button';
import { errorSummary } from './error-panel';

type ExportState =
  | { phase: 'idle' }
  | { phase: 'running'; progress: CsvProgress }
  | { phase: 'saved'; rows: number; fileName: string }
  | { phase: 'failed'; error: unknown };

const INCOMPLETE = new Error(
  'The export ended in the middle of a row, so the file would be incomplete. Try again.',
);

function saveFile(parts: Uint8Array<ArrayBuffer>[], fileName: string) {
  const url = URL.createObjectURL(new Blob(parts, { type: 'text/csv;charset=utf-8' }));
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  document.body.append(link);
  link.click();
  link.remove();
  // The browser has taken the download by now; the blob's memory can go after this task.
  setTimeout(() => {
    URL.revokeObjectURL(url);
  }, 0);
}

/**
 * Downloads GET /bff/export/{subject}.csv with `filters` (every matching row, streamed by the
 * BFF), showing rows and bytes received while it runs, then saves the file. A stream that stops
 * mid-row is reported, never saved as if complete.
 */
export function ExportButton({
  subject,
  filters = {},
}: {
  subject: ExportSubject;
  filters?: Partial<Record<string, string>>;
}) {
  const [state, setState] = useState<ExportState>({ phase: 'idle' });
  const controllerRef = useRef<AbortController | null>(null);
  useEffect(
    () => () => {
      controllerRef.current?.abort();
    },
    [],
  );

  const handleExport = async () => {
    const controller = new AbortController();
    controllerRef.current = controller;
    const counter = createCsvCounter();
    const parts: Uint8Array<ArrayBuffer>[] = [];
    setState({ phase: 'running', progress: counter.progress() });
    try {
      const { fileName } = await apiDownload(withQuery(`/bff/export/${subject}.csv`, filters), {
        signal: controller.signal,
        onChunk: (chunk) => {
          parts.push(chunk);
          setState({ phase: 'running', progress: counter.add(chunk) });
        },
      });
      const progress = counter.progress();
      if (!progress.isAtRecordEnd) throw INCOMPLETE;
      const name = fileName ?? `${subject}.csv`;
      saveFile(parts, name);
      setState({ phase: 'saved', rows: progress.rows, fileName: name });
    } catch (error) {
      setState(controller.signal.aborted ? { phase: 'idle' } : { phase: 'failed', error: error });
    } finally {
      if (controllerRef.current === controller) controllerRef.current = null;
    }
  };

  const failure = state.phase === 'failed' ? errorSummary(state.error) : null;
  return (
    <div className="flex flex-wrap items-center gap-2">
      {state.phase === 'running' ? (
        <Button
          onClick={() => {
            controllerRef.current?.abort();
          }}
        >
          Cancel export
        </Button>
      ) : (
        <Button onClick={() => void handleExport()}>Export {subject} CSV</Button>
      )}
      {/* Always rendered, so it is a live region before it says anything; while empty it gives
          back the gap it would open beside the button. */}
      <span role="status" className="text-xs text-slate-600 tabular-nums empty:-ml-2">
        {state.phase === 'running'
          ? `Exporting… ${state.progress.rows.toLocaleString()} rows, ${formatBytes(state.progress.bytes)} so far`
          : state.phase === 'saved'
            ? `Saved ${state.fileName} (${state.rows.toLocaleString()} rows)`
            : ''}
      </span>
      {failure ? (
        <p role="alert" className="text-xs font-medium text-red-700">
          Export failed: {failure.title}
          {failure.message ? ` ${failure.message}` : ''}
        </p>
      ) : null}
    </div>
  );
}
