import pino from 'pino';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createRenderLimiter } from './render-limiter.ts';

/** A render the test settles itself. */
function pendingRender() {
  let settle: { resolve: (value: string) => void; reject: (error: Error) => void } | undefined;
  const promise = new Promise<string>((resolve, reject) => {
    settle = { resolve, reject };
  });
  return { render: () => promise, ...settle! };
}

describe('renders for one page load, at most so many at once (docs/decisions/032)', () => {
  const warnings: string[] = [];
  const log = pino({ level: 'debug' }, { write: (line: string) => void (JSON.parse(line).level >= 40 && warnings.push(line)) });
  afterEach(() => {
    vi.useRealTimers();
    warnings.length = 0;
  });

  it('starts renders up to the limit, refuses the next without starting it, and has room again once one settles', async () => {
    const limiter = createRenderLimiter({ max: 2, slotMs: 10_000, log });
    const first = pendingRender();
    const second = pendingRender();
    const started = [limiter.run(first.render), limiter.run(second.render)];
    expect(started.every((render) => render !== undefined)).toBe(true);
    const third = vi.fn(() => Promise.resolve('third'));
    expect(limiter.run(third)).toBeUndefined();
    expect(third).not.toHaveBeenCalled();
    expect(limiter.underWay).toBe(2);

    first.resolve('first');
    await expect(started[0]).resolves.toBe('first');
    expect(limiter.underWay).toBe(1);
    await expect(limiter.run(third)).resolves.toBe('third');
    expect(limiter.underWay).toBe(1);
  });

  it('gives the place back when a render fails, also one that throws before its first await', async () => {
    const limiter = createRenderLimiter({ max: 1, slotMs: 10_000, log });
    const failing = pendingRender();
    const running = limiter.run(failing.render);
    failing.reject(new Error('the page could not render'));
    await expect(running).rejects.toThrow('the page could not render');
    expect(limiter.underWay).toBe(0);

    await expect(
      limiter.run(() => {
        throw new Error('at once');
      }),
    ).rejects.toThrow('at once');
    expect(limiter.underWay).toBe(0);
    await expect(limiter.run(() => Promise.resolve('next'))).resolves.toBe('next');
  });

  it('gives the place of a render that hangs back after slotMs, once, and says so', async () => {
    vi.useFakeTimers();
    const limiter = createRenderLimiter({ max: 1, slotMs: 10_000, log });
    const hanging = pendingRender();
    const running = limiter.run(hanging.render);
    expect(limiter.run(() => Promise.resolve('refused'))).toBeUndefined();

    await vi.advanceTimersByTimeAsync(9_999);
    expect(limiter.underWay).toBe(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(limiter.underWay).toBe(0);
    expect(warnings.join('\n')).toContain('has not finished in time');

    // Another render takes the place; the late one settling does not give back a place it no longer holds.
    const next = pendingRender();
    const nextRunning = limiter.run(next.render);
    expect(nextRunning).toBeDefined();
    hanging.resolve('late');
    await expect(running).resolves.toBe('late');
    expect(limiter.underWay).toBe(1);
    next.resolve('next');
    await nextRunning;
    expect(limiter.underWay).toBe(0);
  });
});
