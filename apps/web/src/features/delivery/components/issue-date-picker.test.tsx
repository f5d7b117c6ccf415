import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/preact';
import { useState } from 'react';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { IssueDatePicker } from './issue-date-picker.tsx';

beforeAll(() => {
  // jsdom has no CSS.escape; React Aria's focus handling uses it. Letters, digits and '-' need no escaping.
  globalThis.CSS ??= { escape: (value: string) => value } as typeof CSS;
});

afterEach(cleanup);

/** Every day of 2030 has a newspaper. */
const publicationDays = new Set(Array.from({ length: 365 }, (_, day) => new Date(Date.UTC(2030, 0, 1 + day)).toISOString().slice(0, 10)));

function Picker() {
  const [value, setValue] = useState<string | null>('2030-01-15');
  return <IssueDatePicker label="Til og med" value={value} onChange={setValue} publicationDays={publicationDays} minValue="2030-01-01" maxValue="2030-12-31" />;
}

const focused = () => document.activeElement as HTMLElement;
/** A key pressed and released on whatever has the focus, as a keyboard does. */
const press = (key: string) =>
  act(() => {
    const target = focused();
    fireEvent.keyDown(target, { key });
    fireEvent.keyUp(target, { key });
  });

// These keys go through React Aria's keyboard shortcuts, which read the fields of a copy of the
// event: on Preact that takes lib/preact-events.ts (ADR 021), without which every key is ignored.
describe('issue date picker, by keyboard', () => {
  it('opens the calendar on the chosen day; Page Down and the arrows move, Enter picks, Escape closes', async () => {
    render(<Picker />);
    fireEvent.click(screen.getByRole('button', { name: /^Velg dato i kalender: Til og med/ }));
    const calendar = await screen.findByRole('dialog', { name: 'Til og med' });
    const heading = () => calendar.querySelector('h2')?.textContent;
    expect(heading()).toMatch(/januar 2030/i);
    expect(focused().textContent).toBe('15');

    await press('PageDown');
    expect(heading()).toMatch(/februar 2030/i);
    expect(focused().textContent).toBe('15');
    await press('ArrowRight');
    expect(focused().textContent).toBe('16');
    await press('Enter');
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Til og med' })).toBeNull());
    expect(screen.getByRole('spinbutton', { name: /^måned/ }).textContent).toBe('02');
    expect(screen.getByRole('spinbutton', { name: /^dag/ }).textContent).toBe('16');

    fireEvent.click(screen.getByRole('button', { name: /^Velg dato i kalender: Til og med/ }));
    await screen.findByRole('dialog', { name: 'Til og med' });
    await press('Escape');
    expect(screen.queryByRole('dialog', { name: 'Til og med' })).toBeNull();
  });

  it('Arrow Up and Down change the focused part of the typed date', async () => {
    render(<Picker />);
    const day = screen.getByRole('spinbutton', { name: /^dag/ });
    act(() => day.focus());
    await press('ArrowUp');
    expect(day.textContent).toBe('16');
    await press('ArrowDown');
    await press('ArrowDown');
    expect(day.textContent).toBe('14');
  });
});
