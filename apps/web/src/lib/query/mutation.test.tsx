import { act, cleanup, render, screen } from '@testing-library/preact';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { QueryClient, QueryClientProvider, useIsMutating, useMutation, useQuery, type MutationOptions, type MutationResult } from './index.ts';

afterEach(cleanup);

function deferred<T>() {
  let resolve: (value: T) => void = () => {};
  const promise = new Promise<T>((res) => (resolve = res));
  return { promise, resolve };
}

let mutation: MutationResult<string, string> | undefined;

function Form({ options }: { options: MutationOptions<string, string> }) {
  mutation = useMutation(options);
  const busy = useIsMutating();
  return <p data-testid="x">{`${mutation.status}/${mutation.isPending ? 'pending' : ''}/${String(mutation.variables ?? '')}/${mutation.data ?? ''}/${mutation.error?.message ?? ''}/${busy}`}</p>;
}

function renderForm(options: MutationOptions<string, string>, client = new QueryClient()) {
  render(
    <QueryClientProvider client={client}>
      <Form options={options} />
    </QueryClientProvider>,
  );
  return client;
}

const text = () => screen.getByTestId('x').textContent;

describe('useMutation', () => {
  it('is pending with its variables while sent, and stays pending until onSuccess and onSettled have done their work', async () => {
    const sent = deferred<string>();
    const invalidated = deferred<void>();
    const order: string[] = [];
    renderForm({
      mutationFn: () => sent.promise,
      onSuccess: (data, variables) => {
        order.push(`onSuccess ${data} ${variables}`);
      },
      onSettled: (data, error) => {
        order.push(`onSettled ${data} ${error}`);
        return invalidated.promise;
      },
    });
    expect(text()).toBe('idle/////0');
    act(() => mutation!.mutate('ny adresse', { onSuccess: (data) => order.push(`mutate's onSuccess ${data}`) }));
    await vi.waitFor(() => expect(text()).toBe('pending/pending/ny adresse///1'));
    sent.resolve('lagret');
    await vi.waitFor(() => expect(order).toEqual(['onSuccess lagret ny adresse', 'onSettled lagret null']));
    expect(text()).toBe('pending/pending/ny adresse///1');
    await act(() => invalidated.resolve());
    await vi.waitFor(() => expect(text()).toBe('success//ny adresse/lagret//0'));
    expect(order.at(-1)).toBe("mutate's onSuccess lagret");
  });

  it('on failure: the error shows, onError and onSettled run, mutateAsync rejects; reset forgets it', async () => {
    const onError = vi.fn();
    const onSettled = vi.fn();
    renderForm({ mutationFn: async () => Promise.reject(new Error('Ugyldig kode')), onError, onSettled });
    await act(async () => {
      await expect(mutation!.mutateAsync('123')).rejects.toThrow('Ugyldig kode');
    });
    expect(text()).toBe('error//123//Ugyldig kode/0');
    expect(onError).toHaveBeenCalledWith(expect.objectContaining({ message: 'Ugyldig kode' }), '123');
    expect(onSettled).toHaveBeenCalledWith(undefined, expect.objectContaining({ message: 'Ugyldig kode' }), '123');
    act(() => mutation!.reset());
    expect(text()).toBe('idle/////0');
  });

  it('shows the error even when its onError throws: a failing callback does not leave it pending', async () => {
    renderForm({
      mutationFn: async () => Promise.reject(new Error('Ugyldig kode')),
      onError: () => {
        throw new Error('callback failed');
      },
    });
    await act(async () => {
      await expect(mutation!.mutateAsync('123')).rejects.toThrow();
    });
    expect(text()).toBe('error//123//Ugyldig kode/0');
  });

  it('is not retried unless the options say so', async () => {
    const mutationFn = vi.fn<(value: string) => Promise<string>>().mockRejectedValueOnce(new Error('nede')).mockResolvedValue('ok');
    renderForm({ mutationFn });
    await act(async () => {
      await mutation!.mutateAsync('a').catch(() => undefined);
    });
    expect(mutationFn).toHaveBeenCalledTimes(1);
    renderForm({ mutationFn: vi.fn<(value: string) => Promise<string>>().mockRejectedValueOnce(new Error('nede')).mockResolvedValue('ok'), retry: 1, retryDelay: 0 });
    await act(async () => {
      expect(await mutation!.mutateAsync('a')).toBe('ok');
    });
  });

  it('shows only the latest call: an earlier call that ends later does not overwrite it, nor runs its mutate callbacks', async () => {
    const first = deferred<string>();
    const second = deferred<string>();
    const calls = [first, second];
    const late = vi.fn();
    renderForm({ mutationFn: () => calls.shift()!.promise });
    act(() => mutation!.mutate('1', { onSuccess: late }));
    act(() => mutation!.mutate('2'));
    await act(() => second.resolve('to'));
    await vi.waitFor(() => expect(text()).toBe('success//2/to//1'));
    await act(() => first.resolve('en'));
    await vi.waitFor(() => expect(text()).toBe('success//2/to//0'));
    expect(late).not.toHaveBeenCalled();
  });

  it('an answer put into the cache in onSuccess shows in the queries at once', async () => {
    const client = new QueryClient();
    client.setQueryData(['address'], 'gammel');
    function Address() {
      return <p data-testid="a">{useQuery({ queryKey: ['address'], queryFn: async () => 'hentet', staleTime: Infinity }).data}</p>;
    }
    render(
      <QueryClientProvider client={client}>
        <Address />
        <Form options={{ mutationFn: async (address) => address, onSuccess: (address) => client.setQueryData(['address'], address) }} />
      </QueryClientProvider>,
    );
    await act(async () => {
      await mutation!.mutateAsync('ny');
    });
    expect(screen.getByTestId('a').textContent).toBe('ny');
  });
});
