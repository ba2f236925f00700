import { useEffect, useState } from 'react';

/**
 * How long an answer may take before the console says it is still waiting. A hung upstream
 * keeps a call open for a long time: the BFF makes three attempts of 10 s each before it
 * answers.
 */
export const SLOW_ANSWER_MS = 5_000;

/** True once `isWaiting` has stayed true for `afterMs`; false again as soon as it is not. */
export function useIsSlow(isWaiting: boolean, afterMs = SLOW_ANSWER_MS): boolean {
  const [isSlow, setIsSlow] = useState(false);
  useEffect(() => {
    if (!isWaiting) return;
    const timer = setTimeout(() => {
      setIsSlow(true);
    }, afterMs);
    return () => {
      clearTimeout(timer);
      setIsSlow(false);
    };
  }, [isWaiting, afterMs]);
  return isWaiting && isSlow;
}
