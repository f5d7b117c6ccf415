import { describe, expect, it, vi } from 'vitest';
import { createSpinner, DEFAULT_SPINNER_MESSAGE, initialSpinnerState, spinner } from './spinner.ts';

describe('spinner (SPEC §3, §4)', () => {
  it('is on at start with the message "henter informasjon.."', () => {
    expect(DEFAULT_SPINNER_MESSAGE).toBe('henter informasjon..');
    expect(initialSpinnerState).toEqual({ showSpinner: true, spinnerMsg: 'henter informasjon..' });
    expect(createSpinner().getState()).toEqual({ showSpinner: true, spinnerMsg: 'henter informasjon..' });
    expect(spinner.getState()).toEqual({ showSpinner: true, spinnerMsg: 'henter informasjon..' });
  });

  it('start(message) turns it on with that message', () => {
    const s = createSpinner();
    s.stop();
    s.start('Lagrer adressen');
    expect(s.getState()).toEqual({ showSpinner: true, spinnerMsg: 'Lagrer adressen' });
  });

  it('start() without a message turns it on with an empty message', () => {
    const s = createSpinner();
    s.start('Lagrer');
    s.stop();
    s.start();
    expect(s.getState()).toEqual({ showSpinner: true, spinnerMsg: '' });
  });

  it('stop() turns it off and leaves the message alone', () => {
    const s = createSpinner();
    s.stop();
    expect(s.getState()).toEqual({ showSpinner: false, spinnerMsg: 'henter informasjon..' });
    s.start('Sender');
    s.stop();
    expect(s.getState()).toEqual({ showSpinner: false, spinnerMsg: 'Sender' });
  });

  it('notifies subscribers on changes only', () => {
    const s = createSpinner();
    const listener = vi.fn();
    const unsubscribe = s.subscribe(listener);
    s.stop();
    s.stop();
    expect(listener).toHaveBeenCalledTimes(1);
    s.start();
    expect(listener).toHaveBeenCalledTimes(2);
    unsubscribe();
    s.stop();
    expect(listener).toHaveBeenCalledTimes(2);
  });
});
