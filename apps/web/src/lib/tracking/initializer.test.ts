import { describe, expect, it, vi } from 'vitest';
import { subscriber, withoutSubscription } from '../../features/auth/testing/fake-identity.ts';
import { createTrackingInitializer } from './initializer.ts';

describe('tracking provider initialisation (SPEC §4 step 5)', () => {
  it('sets the provider up once, for the first signed-in user', () => {
    const setUp = vi.fn();
    const init = createTrackingInitializer(setUp);
    init(subscriber);
    init(withoutSubscription);
    init(subscriber);
    expect(setUp).toHaveBeenCalledTimes(1);
    expect(setUp).toHaveBeenCalledWith(subscriber);
  });

  it('does not let a failing provider break navigation, nor retry it', () => {
    const error = vi.spyOn(console, 'error').mockImplementation(() => {});
    const setUp = vi.fn(() => {
      throw new Error('SDK missing');
    });
    const init = createTrackingInitializer(setUp);
    expect(() => init(subscriber)).not.toThrow();
    init(subscriber);
    expect(setUp).toHaveBeenCalledTimes(1);
    expect(error).toHaveBeenCalled();
  });
});
