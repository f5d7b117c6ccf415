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
    fireEvent.click(top!);
    await vi.waitFor(() => expect(top!.textContent).toBe('Øverst 1'));
    // The first part's click has been rendered: the held-back part's was not heard.
    expect(middle!.textContent).toBe('Midten 0');

    await done;
    // Each part once, in the page's order, on the same elements: nothing was rendered anew.
    expect(check.before).toHaveBeenCalledTimes(2);
    expect(check.after).toHaveBeenCalledTimes(2);
    expect(check.after.mock.results.map((result) => result.value)).toEqual(check.before.mock.results.map((result) => result.value));
    screen.getAllByRole('button').forEach((button, index) => expect(button).toBe([top, middle, bottom][index]));
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

  it('a part whose parent renders again before its task hydrates the server’s markup, then takes the new attributes on the same element', async () => {
    let setTone = (_tone: string) => {};
    function Toned() {
      const [tone, set] = useState('server');
      setTone = set;
      return (
        <div>
          <HydrateLater>
            <section className={tone}>Midten</section>
          </HydrateLater>
        </div>
      );
    }
    const container = document.body.appendChild(document.createElement('div'));
    container.innerHTML = renderToString(<Toned />);
    const section = container.querySelector('section')!;
    const after = vi.fn(() => container.innerHTML);
    const done = hydrateInParts(() => hydrateRoot(container, <Toned />), { before: () => {}, after });
    setTone('client');
    await done;
    await vi.waitFor(() => expect(section.className).toBe('client'));
    expect(container.querySelector('section')).toBe(section);
    // The check saw the part as the server sent it, before the new attribute.
    expect(after).toHaveBeenCalledTimes(1);
    expect(after.mock.results[0]!.value).toContain('class="server"');
  });

  it('a part whose page is left before its task is not waited for', async () => {
    let leave = () => {};
    function Leaving() {
      const [here, set] = useState(true);
      leave = () => set(false);
      return <div>{here ? <HydrateLater>{<section>Midten</section>}</HydrateLater> : <p>En annen side</p>}</div>;
    }
    const container = document.body.appendChild(document.createElement('div'));
    container.innerHTML = renderToString(<Leaving />);
    const after = vi.fn();
    const done = hydrateInParts(() => hydrateRoot(container, <Leaving />), { before: () => {}, after });
    leave();
    await done;
    expect(after).not.toHaveBeenCalled();
    await vi.waitFor(() => expect(container.innerHTML).toBe('<div><p>En annen side</p></div>'));
  });

  it('renders its part at once outside a page’s first hydration', () => {
    render(<Page />);
    expect(screen.getAllByRole('button').map((button) => button.textContent)).toEqual(['Øverst 0', 'Midten 0', 'Nederst 0']);
  });
});
