import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { QueryClient, QueryClientProvider } from './query/index.ts';
import { cleanup, render, screen } from '@testing-library/preact';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { InlineSvg } from './inline-svg.tsx';

let server: Server;
let base: string;

beforeAll(async () => {
  server = createServer((request, response) => {
    if (request.url === '/logo.svg') {
      response.writeHead(200, { 'content-type': 'image/svg+xml' }).end('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 4 4" onload="alert(1)"><script>alert(2)</script><circle r="2"/></svg>');
    } else if (request.url === '/index.html') {
      response.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><title>SPA</title>');
    } else {
      response.writeHead(500).end();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
});

afterEach(() => {
  cleanup();
});

function renderSvg(src: string) {
  return render(
    <QueryClientProvider client={new QueryClient()}>
      <a href="https://www.adressa.no" aria-label="Adresseavisen">
        <InlineSvg src={src} decorative fallback={<span>Adresseavisen</span>} />
      </a>
    </QueryClientProvider>,
  );
}

describe('InlineSvg', () => {
  it('inlines the sanitised SVG, hidden from assistive technology', async () => {
    const { container } = renderSvg(`${base}/logo.svg`);
    await vi.waitFor(() => expect(container.querySelector('svg circle')).not.toBeNull());
    const svg = container.querySelector('svg');
    expect(svg?.getAttribute('aria-hidden')).toBe('true');
    expect(svg?.hasAttribute('onload')).toBe(false);
    expect(container.querySelector('script')).toBeNull();
  });

  it.each([
    ['/index.html', 'Loaded file is not valid SVG'],
    ['/broken.svg', 'Error loading SVG'],
  ])('shows the fallback and logs "%s" failing with "%s"', async (path, message) => {
    const log = vi.spyOn(console, 'error').mockImplementation(() => {});
    const { container } = renderSvg(`${base}${path}`);
    expect(await screen.findByText('Adresseavisen')).toBeDefined();
    expect(container.querySelector('svg')).toBeNull();
    await vi.waitFor(() => expect(log).toHaveBeenCalledWith(`${message}: ${base}${path}`));
  });
});
