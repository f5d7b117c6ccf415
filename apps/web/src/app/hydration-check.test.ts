import { afterEach, describe, expect, it, vi } from 'vitest';
import { createHydrationCheck } from './hydration-check.ts';

afterEach(() => {
  vi.restoreAllMocks();
  document.body.replaceChildren();
});

describe('the hydration mismatch check', () => {
  it('says nothing when hydrating leaves the markup as the server sent it, and warns, with the place, when it does not', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const container = document.body.appendChild(document.createElement('div'));
    container.innerHTML = '<p>Hei, Kari!</p><footer>Adresseavisen</footer>';
    const check = createHydrationCheck(container);
    check.around(() => {});
    check.before();
    check.after();
    expect(warn).not.toHaveBeenCalled();

    check.around(() => (container.querySelector('p')!.textContent = 'Hei, Ola!'));
    expect(warn).toHaveBeenCalledTimes(1);
    expect(warn.mock.calls[0]![0]).toMatch(/^Hydration mismatch: .*\nserver: {2}…<p>Hei, Kari!<\/p>.*\nbrowser: …<p>Hei, Ola!<\/p>/s);

    check.before();
    container.querySelector('footer')!.textContent = 'Annet';
    check.after();
    expect(warn).toHaveBeenCalledTimes(2);
  });
});
