import { cleanup, fireEvent, render, screen } from '@testing-library/preact';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { ConsentDialog } from './consent-dialog.tsx';

beforeAll(() => {
  // jsdom has <dialog> but not its modal methods.
  HTMLDialogElement.prototype.showModal ??= function showModal(this: HTMLDialogElement) {
    this.setAttribute('open', '');
  };
  HTMLDialogElement.prototype.close ??= function close(this: HTMLDialogElement) {
    this.removeAttribute('open');
    this.dispatchEvent(new Event('close'));
  };
});

afterEach(cleanup);

const none = { analytics: false, marketing: false, personalisation: false };

describe('consent dialog', () => {
  it('is a labelled dialog with the three choices and a switch per purpose, necessary always on', () => {
    render(<ConsentDialog open current={null} onChoose={() => {}} onDismiss={() => {}} />);
    expect(screen.getByRole('dialog', { name: 'Personverninnstillinger' })).toBeTruthy();
    for (const name of ['Godta alle', 'Avslå alle', 'Lagre valg']) expect(screen.getByRole('button', { name })).toBeTruthy();
    const necessary = screen.getByRole<HTMLInputElement>('switch', { name: /Nødvendige/ });
    expect(necessary.checked).toBe(true);
    expect(necessary.disabled).toBe(true);
    for (const name of ['Analyse', 'Markedsføring', 'Personlig tilpasning']) {
      expect(screen.getByRole<HTMLInputElement>('switch', { name }).checked).toBe(false);
    }
  });

  it('"Godta alle" grants every purpose, "Avslå alle" none, "Lagre valg" what the switches say', () => {
    const onChoose = vi.fn();
    render(<ConsentDialog open current={null} onChoose={onChoose} onDismiss={() => {}} />);
    fireEvent.click(screen.getByRole('button', { name: 'Godta alle' }));
    expect(onChoose).toHaveBeenLastCalledWith({ analytics: true, marketing: true, personalisation: true });
    fireEvent.click(screen.getByRole('button', { name: 'Avslå alle' }));
    expect(onChoose).toHaveBeenLastCalledWith(none);
    fireEvent.click(screen.getByRole('switch', { name: 'Analyse' }));
    fireEvent.click(screen.getByRole('button', { name: 'Lagre valg' }));
    expect(onChoose).toHaveBeenLastCalledWith({ ...none, analytics: true });
  });

  it('starts the switches from the choice that holds', () => {
    render(<ConsentDialog open current={{ ...none, marketing: true }} onChoose={() => {}} onDismiss={() => {}} />);
    expect(screen.getByRole<HTMLInputElement>('switch', { name: 'Markedsføring' }).checked).toBe(true);
  });

  it('Esc does not close it before a choice exists; it does after', () => {
    const onDismiss = vi.fn();
    const { rerender } = render(<ConsentDialog open current={null} onChoose={() => {}} onDismiss={onDismiss} />);
    const cancel = new Event('cancel', { cancelable: true });
    screen.getByRole('dialog').dispatchEvent(cancel);
    expect(cancel.defaultPrevented).toBe(true);
    expect(onDismiss).not.toHaveBeenCalled();

    expect(screen.queryByRole('button', { name: 'Lukk uten å endre' })).toBeNull();

    rerender(<ConsentDialog open current={none} onChoose={() => {}} onDismiss={onDismiss} />);
    screen.getByRole('dialog').dispatchEvent(new Event('cancel', { cancelable: true }));
    expect(onDismiss).toHaveBeenCalledTimes(1);
    fireEvent.click(screen.getByRole('button', { name: 'Lukk uten å endre' }));
    expect(onDismiss).toHaveBeenCalledTimes(2);
  });
});
