import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadSvg, SVG_LOAD_ERROR_MESSAGE } from './load-svg.ts';
import { prepareSvg, SVG_INVALID_MESSAGE } from './prepare-svg.ts';

const goodSvg =
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10" role="img" aria-label="Logo" onload="alert(1)">' +
  '<script>alert(2)</script><a href="javascript:alert(3)"><rect width="10" height="10" onclick="alert(4)" fill="#00539f"/></a></svg>';

let server: Server;
let base: string;

beforeAll(async () => {
  server = createServer((request, response) => {
    switch (request.url) {
      case '/logo.svg':
        response.writeHead(200, { 'content-type': 'image/svg+xml' }).end(goodSvg);
        break;
      case '/moved.svg':
        response.writeHead(302, { location: '/logo.svg' }).end();
        break;
      case '/page.html':
        response.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><html lang="nb"><body><p>Min Side</p></body></html>');
        break;
      case '/data.json':
        response.writeHead(200, { 'content-type': 'application/json' }).end('{"svg":false}');
        break;
      case '/broken.svg':
        response.writeHead(500, { 'content-type': 'image/svg+xml' }).end(goodSvg);
        break;
      default:
        response.writeHead(404).end('not found');
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
});

describe('loadSvg (SPEC §8 image loader)', () => {
  it('returns the SVG markup without scripts, handlers or javascript: links', async () => {
    const markup = await loadSvg(`${base}/logo.svg`);
    expect(markup).toMatch(/^<svg[\s>]/);
    expect(markup).toContain('<rect');
    expect(markup).toContain('fill="#00539f"');
    expect(markup).not.toMatch(/script/i);
    expect(markup).not.toMatch(/\son\w+=/i);
    expect(markup).not.toContain('alert');
  });

  it('follows a redirect (3xx) to the SVG', async () => {
    await expect(loadSvg(`${base}/moved.svg`)).resolves.toContain('<rect');
  });

  it('fails with "Loaded file is not valid SVG" when the body is HTML', async () => {
    await expect(loadSvg(`${base}/page.html`)).rejects.toThrow(new Error('Loaded file is not valid SVG'));
  });

  it('fails with "Loaded file is not valid SVG" when the body is JSON', async () => {
    await expect(loadSvg(`${base}/data.json`)).rejects.toThrow(SVG_INVALID_MESSAGE);
  });

  it('fails with "Error loading SVG" on a 500, even with an SVG body', async () => {
    await expect(loadSvg(`${base}/broken.svg`)).rejects.toThrow(new Error('Error loading SVG'));
  });

  it('fails with "Error loading SVG" on a 404', async () => {
    await expect(loadSvg(`${base}/missing.svg`)).rejects.toThrow(SVG_LOAD_ERROR_MESSAGE);
  });

  it('fails with "Error loading SVG" when the server cannot be reached', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(closed.address() as AddressInfo).port}/logo.svg`;
    await new Promise((resolve) => closed.close(resolve));
    await expect(loadSvg(url)).rejects.toThrow(SVG_LOAD_ERROR_MESSAGE);
  });
});

describe('prepareSvg', () => {
  it('marks a decorative SVG hidden from assistive technology', () => {
    const markup = prepareSvg(goodSvg, { decorative: true });
    expect(markup).toContain('aria-hidden="true"');
    expect(markup).not.toContain('role="img"');
    expect(markup).not.toContain('aria-label');
  });

  it('rejects XML that is not SVG', () => {
    expect(() => prepareSvg('<html xmlns="http://www.w3.org/1999/xhtml"><body/></html>')).toThrow(SVG_INVALID_MESSAGE);
    expect(() => prepareSvg('<svg>no namespace</svg>')).toThrow(SVG_INVALID_MESSAGE);
    expect(() => prepareSvg('')).toThrow(SVG_INVALID_MESSAGE);
  });
});
