type IdleDeadline = { timeRemaining(): number };

function whenIdle(run: (deadline: IdleDeadline) => void): void {
  if (typeof window !== 'undefined' && typeof window.requestIdleCallback === 'function') {
    // No timeout: a callback forced by one gets no idle time (timeRemaining() is 0), so on a
    // page that is never idle it did nothing and only asked again.
    window.requestIdleCallback(run);
  } else {
    // No idle callbacks (an older Safari): a short slice per task.
    setTimeout(() => {
      const until = performance.now() + 4;
      run({ timeRemaining: () => Math.max(0, until - performance.now()) });
    }, 0);
  }
}

/**
 * Prepares, in the browser's idle time, what showing each row of a list will need (formatted
 * text, say), so that scrolling a row into view finds it ready instead of making it inside the
 * scroll step. The newest list given replaces one still being worked through (no copy of it is
 * made: a live list changes often). `prepare` returns false when nothing more should be
 * prepared (its cache is as full as it may be made ahead); the walk then stops until the next
 * list.
 */
export function createIdleAhead(): <Row>(
  rows: readonly Row[],
  prepare: (row: Row) => boolean,
) => void {
  let ahead: { rows: readonly unknown[]; prepare: (row: never) => boolean; next: number } | null =
    null;
  let isScheduled = false;

  function workSome(deadline: IdleDeadline): void {
    isScheduled = false;
    const work = ahead;
    if (work === null) return;
    const prepare = work.prepare as (row: unknown) => boolean;
    let isFull = false;
    while (work.next < work.rows.length && deadline.timeRemaining() > 1) {
      const row = work.rows[work.next];
      if (!prepare(row)) {
        isFull = true;
        break;
      }
      work.next += 1;
    }
    if (!isFull && work.next < work.rows.length) {
      isScheduled = true;
      whenIdle(workSome);
    } else if (ahead === work) {
      ahead = null;
    }
  }

  return (rows, prepare) => {
    ahead = { rows, prepare, next: 0 };
    if (isScheduled) return;
    isScheduled = true;
    whenIdle(workSome);
  };
}
