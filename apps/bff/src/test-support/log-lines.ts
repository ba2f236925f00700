import { Writable } from 'node:stream';

/** A log destination for tests: every JSON line written to `sink` is parsed into `lines`. */
export function captureLogLines() {
  const lines: Record<string, unknown>[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      for (const line of chunk.toString('utf8').split('\n'))
        if (line) lines.push(JSON.parse(line) as Record<string, unknown>);
      callback();
    },
  });
  return { lines, sink };
}
