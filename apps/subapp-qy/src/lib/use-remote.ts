import { useCallback, useEffect, useState } from 'react';

export type RemoteStatus = 'loading' | 'ready' | 'error';

export interface Remote<T> {
  status: RemoteStatus;
  /** The last data received (kept while a reload runs, so figures do not blink). */
  data: T | null;
  error: unknown;
  reload: () => void;
}

interface Tracked<T> {
  request: () => Promise<T>;
  attempt: number;
  status: RemoteStatus;
  data: T | null;
  error: unknown;
}

/**
 * Runs `request` (memoise it: a new function means a new call) and again on reload(); answers of a superseded call or
 * arriving after unmount are dropped.
 */
export function useRemote<T>(request: () => Promise<T>): Remote<T> {
  const [attempt, setAttempt] = useState(0);
  const [state, setState] = useState<Tracked<T>>({ request, attempt, status: 'loading', data: null, error: null });

  // a new call: show loading at once (adjusting state during render, as React recommends over an effect)
  let current = state;
  if (state.request !== request || state.attempt !== attempt) {
    current = { ...state, request, attempt, status: 'loading', error: null };
    setState(current);
  }

  useEffect(() => {
    let live = true;
    request().then(
      (data) => {
        if (live) setState((s) => ({ ...s, status: 'ready', data, error: null }));
      },
      (error: unknown) => {
        if (live) setState((s) => ({ ...s, status: 'error', error }));
      },
    );
    return () => {
      live = false;
    };
  }, [request, attempt]);

  const reload = useCallback(() => setAttempt((n) => n + 1), []);
  return { status: current.status, data: current.data, error: current.error, reload };
}
