// useMutation: a change sent to the server, and its state for the form that sent it (docs/decisions/035).
import { useCallback, useEffect, useRef, useState } from 'react';
import { useQueryClient } from './hooks.tsx';
import { noop, withRetry, type Retry, type RetryDelay } from './query.ts';

export interface MutationOptions<TData, TVariables> {
  mutationFn: (variables: TVariables) => Promise<TData>;
  /** Awaited before the mutation counts as done: a returned promise (an invalidation) keeps it pending. */
  onSuccess?: (data: TData, variables: TVariables) => unknown;
  onError?: (error: Error, variables: TVariables) => unknown;
  onSettled?: (data: TData | undefined, error: Error | null, variables: TVariables) => unknown;
  retry?: Retry;
  retryDelay?: RetryDelay;
}

/** Per call of `mutate`: run after the hook's own callbacks, and only for the latest call while the hook is mounted. */
interface MutateOptions<TData, TVariables> {
  onSuccess?: (data: TData, variables: TVariables) => void;
  onError?: (error: Error, variables: TVariables) => void;
  onSettled?: (data: TData | undefined, error: Error | null, variables: TVariables) => void;
}

type MutationState<TData, TVariables> =
  | { status: 'idle'; data: undefined; error: null; variables: undefined }
  | { status: 'pending'; data: undefined; error: null; variables: TVariables }
  | { status: 'error'; data: undefined; error: Error; variables: TVariables }
  | { status: 'success'; data: TData; error: null; variables: TVariables };

type Flags<S extends string> = {
  isIdle: S extends 'idle' ? true : false;
  isPending: S extends 'pending' ? true : false;
  isError: S extends 'error' ? true : false;
  isSuccess: S extends 'success' ? true : false;
};

type WithFlags<M> = M extends { status: infer S extends string } ? M & Flags<S> : never;

export type MutationResult<TData, TVariables> = WithFlags<MutationState<TData, TVariables>> & {
  /** Sends the change; a failure shows in `error` (nothing is thrown). */
  mutate: (variables: TVariables, options?: MutateOptions<TData, TVariables>) => void;
  /** Sends the change; the promise rejects on failure. */
  mutateAsync: (variables: TVariables, options?: MutateOptions<TData, TVariables>) => Promise<TData>;
  /** Back to idle: the last call's result and error are forgotten. */
  reset: () => void;
};

const idle = { status: 'idle', data: undefined, error: null, variables: undefined } as const;

export function useMutation<TData = unknown, TVariables = void>(options: MutationOptions<TData, TVariables>): MutationResult<TData, TVariables> {
  const client = useQueryClient();
  const [state, setState] = useState<MutationState<TData, TVariables>>(idle);
  const latest = useRef(options);
  latest.current = options;
  // Which call of mutate is the current one: an older call's result no longer shows.
  const calls = useRef(0);
  const mounted = useRef(true);
  useEffect(() => {
    mounted.current = true;
    return () => {
      mounted.current = false;
    };
  }, []);

  const mutateAsync = useCallback(
    async (variables: TVariables, callbacks: MutateOptions<TData, TVariables> = {}): Promise<TData> => {
      const call = ++calls.current;
      const current = () => call === calls.current && mounted.current;
      const { mutationFn, onSuccess, onError, onSettled, retry, retryDelay } = { ...client.mutationDefaults(), ...latest.current };
      const show = (next: MutationState<TData, TVariables>) => {
        if (current()) setState(next);
      };
      show({ status: 'pending', data: undefined, error: null, variables });
      client.countMutation(1);
      try {
        let data: TData;
        try {
          data = await withRetry(() => mutationFn(variables), retry ?? false, retryDelay);
          await onSuccess?.(data, variables);
          await onSettled?.(data, null, variables);
        } catch (caught) {
          const error = caught as Error;
          try {
            await onError?.(error, variables);
            await onSettled?.(undefined, error, variables);
          } finally {
            // A callback that throws must not leave the mutation pending for ever.
            show({ status: 'error', data: undefined, error, variables });
          }
          if (current()) {
            callbacks.onError?.(error, variables);
            callbacks.onSettled?.(undefined, error, variables);
          }
          throw error;
        }
        show({ status: 'success', data, error: null, variables });
        if (current()) {
          callbacks.onSuccess?.(data, variables);
          callbacks.onSettled?.(data, null, variables);
        }
        return data;
      } finally {
        client.countMutation(-1);
      }
    },
    [client],
  );

  const mutate = useCallback((variables: TVariables, callbacks?: MutateOptions<TData, TVariables>) => void mutateAsync(variables, callbacks).catch(noop), [mutateAsync]);
  const reset = useCallback(() => {
    calls.current += 1;
    setState(idle);
  }, []);

  const flags = { isIdle: state.status === 'idle', isPending: state.status === 'pending', isError: state.status === 'error', isSuccess: state.status === 'success' };
  return { ...state, ...flags, mutate, mutateAsync, reset } as MutationResult<TData, TVariables>;
}
