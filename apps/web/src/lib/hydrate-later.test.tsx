import { fireEvent, render, screen } from '@testing-library/preact';
import { useState } from 'react';
import { hydrateRoot } from 'react-dom/client';
import { renderToString } from 'react-dom/server';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { HydrateLater, hydrateInParts } from './hydrate-later.tsx';

afterEach(() => {
  document.body.replaceChildren();
});

function Counter({ label }: { label: string }) {
  const [count, setCount] = useState(0);
  return (
    <button type="button" onClick={() => setCount(count + 1)}>
      {label} {count}
    </button>
  );
}

function Page({ later = 'Nederst' }: { later?: string }) {
  return (
    <div>
      <Counter label="Øverst" />
      <HydrateLater>
        <section>
          <Counter label="Midten" />
        </section>
      </HydrateLater>
      <HydrateLater>
        <footer>
          <Counter label={later} />
        </footer>
      </HydrateLater>
    </div>
  );
}

/** The server's markup of `<Page />` in the document, as a page load finds it. */
function serverRendered(): HTMLElement {
  const container = document.body.appendChild(document.createElement('div'));
  container.innerHTML = renderToString(<Page />);
  return container;
}

describe('hydration in parts', () => {
  it('hydrates the first part at once and each held-back part in a later task, on the markup the server sent', async () => {
    const container = serverRendered();
    const before = container.innerHTML;
    const [top, middle, bottom] = screen.getAllByRole('button');
    const check = { before: vi.fn(() => container.innerHTML), after: vi.fn(() => container.innerHTML) };

    const done = hydrateInParts(() => hydrateRoot(container, <Page />), check);
    // The held-back parts stand as the server rendered them, and do not answer yet.
    expect(container.innerHTML).toBe(before);
    fireEvent.click(middle!);
    expect(middle!.textContent).toBe('Midten 0');
    fireEvent.click(top!);
    await vi.waitFor(() => expect(top!.textContent).toBe('Øverst 1'));

    await done;
    // Each part once, in the page's order, on the same elements: nothing was rendered anew.
    expect(check.before).toHaveBeenCalledTimes(2);
    expect(check.after).toHaveBeenCalledTimes(2);
    expect(check.after.mock.results.map((result) => result.value)).toEqual(check.before.mock.results.map((result) => result.value));
    expect(screen.getAllByRole('button')).toEqual([top, middle, bottom]);
    fireEvent.click(middle!);
    fireEvent.click(bottom!);
    await vi.waitFor(() => expect([middle!.textContent, bottom!.textContent]).toEqual(['Midten 1', 'Nederst 1']));
  });

  it('lets the check see a held-back part that hydrates to other markup than the server sent', async () => {
    const container = serverRendered();
    const seen: [string, string][] = [];
    let before = '';
    await hydrateInParts(() => hydrateRoot(container, <Page later="Annerledes" />), {
      before: () => (before = container.innerHTML),
      after: () => seen.push([before, container.innerHTML]),
    });
    expect(seen).toHaveLength(2);
    expect(seen[0]![0]).toBe(seen[0]![1]);
    expect(seen[1]![0]).toContain('Nederst 0');
    expect(seen[1]![1]).toContain('Annerledes 0');
  });

  it('renders its part at once outside a page’s first hydration', () => {
    render(<Page />);
    expect(screen.getAllByRole('button').map((button) => button.textContent)).toEqual(['Øverst 0', 'Midten 0', 'Nederst 0']);
  });
});
