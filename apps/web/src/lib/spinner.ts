import { createStore, useStore, type Store } from './create-store.ts';
import { isServerRender, perPage } from './page-scope.ts';

/** SPEC §3 spinner state and §4 semantics. */
export interface SpinnerState {
  showSpinner: boolean;
  spinnerMsg: string;
}

export const DEFAULT_SPINNER_MESSAGE = 'henter informasjon..';

export const initialSpinnerState: SpinnerState = {
  showSpinner: true,
  spinnerMsg: DEFAULT_SPINNER_MESSAGE,
};

export interface Spinner extends Pick<Store<SpinnerState>, 'getState' | 'subscribe'> {
  /** Turns the spinner on with the given message, or with an empty message when none is given. */
  start(message?: string): void;
  /** Turns the spinner off; the message is left as it was. */
  stop(): void;
}

export function createSpinner(initial: SpinnerState = initialSpinnerState): Spinner {
  const store = createStore<SpinnerState>(initial);
  return {
    getState: store.getState,
    subscribe: store.subscribe,
    start(message) {
      store.setState({ showSpinner: true, spinnerMsg: message ?? '' });
    },
    stop() {
      store.setState((current) => (current.showSpinner ? { ...current, showSpinner: false } : current));
    },
  };
}

/**
 * The app's one spinner: on at start, stopped after each route (app/after-each-route). A page the
 * server renders is its route already loaded (the browser stops the spinner before it hydrates,
 * main.tsx): in the server render it starts off, one per request.
 */
export const spinner: Spinner = perPage(() => createSpinner(isServerRender() ? { ...initialSpinnerState, showSpinner: false } : initialSpinnerState));

export function useSpinnerState(): SpinnerState {
  return useStore(spinner, (state) => state);
}
