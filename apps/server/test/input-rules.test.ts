import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { freeTextRegistry } from '@minside/domain';
import { buildTestApp, type TestApp } from './helper.ts';

// Issue 20 points 7 and 8, the class fix: one rule for e-mail addresses and one for free text,
// in packages/domain. These checks read the sources, so a new per-form regular expression or a
// z.string().email() variant fails the build instead of slipping past review.

const repo = fileURLToPath(new URL('../../../', import.meta.url));
const roots = ['packages/domain/src', 'apps/server/src', 'apps/web/src'];

function sources(): { file: string; text: string }[] {
  return roots.flatMap((root) =>
    readdirSync(path.join(repo, root), { recursive: true, encoding: 'utf8' })
      .filter((file) => /\.(ts|tsx)$/.test(file) && !/\.test\.tsx?$/.test(file))
      .map((file) => {
        const relative = path.join(root, file);
        return { file: relative, text: readFileSync(path.join(repo, relative), 'utf8') };
      }),
  );
}

/** Where an address is checked the one way: the rule itself. */
const emailRuleFile = 'packages/domain/src/core/email.ts';

describe('one e-mail address rule', () => {
  it('no schema uses zod’s own e-mail check', () => {
    const offenders = sources().filter(({ text }) => /\bz\s*\.\s*email\s*\(|\.email\s*\(\s*[{)'"]/.test(text));
    expect(offenders.map(({ file }) => file)).toEqual([]);
  });

  it('no code outside email.ts checks an address with a regular expression of its own', () => {
    // The hallmark of a home-made address check: a character class that is "not @" (or one that has @ and \s).
    const homeMade = /\[\^[^\]]*@[^\]]*\]|\[[^\]]*\\s[^\]]*@[^\]]*\]/;
    const offenders = sources().filter(({ file, text }) => file !== emailRuleFile && text.split('\n').some((line) => homeMade.test(line) && /\/.*\//.test(line)));
    expect(offenders.map(({ file }) => file)).toEqual([]);
  });
});

// --- Free text: every string a request carries is bounded, and free text goes through freeText() ---

type Schema = z.ZodType & { _zod: { def: { type: string } & Record<string, unknown> } };
interface StringLeaf {
  path: string;
  schema: Schema;
}

/** The string leaves of a request schema (objects, wrappers, pipes, arrays, unions, intersections). */
function stringLeaves(schema: Schema, path: string, out: StringLeaf[] = []): StringLeaf[] {
  const def = schema._zod.def as Record<string, unknown> & { type: string };
  const inner = (key: string) => def[key] as Schema;
  switch (def.type) {
    case 'object':
      for (const [key, value] of Object.entries(def['shape'] as Record<string, Schema>)) stringLeaves(value, `${path}.${key}`, out);
      break;
    case 'optional':
    case 'nullable':
    case 'default':
    case 'prefault':
    case 'catch':
    case 'readonly':
    case 'nonoptional':
      stringLeaves(inner('innerType'), path, out);
      break;
    case 'pipe':
      stringLeaves(inner('in'), path, out);
      break;
    case 'array':
      stringLeaves(inner('element'), `${path}[]`, out);
      break;
    case 'union':
      for (const option of def['options'] as Schema[]) stringLeaves(option, path, out);
      break;
    case 'intersection':
      stringLeaves(inner('left'), path, out);
      stringLeaves(inner('right'), path, out);
      break;
    case 'string':
      out.push({ path, schema });
      break;
  }
  return out;
}

function checksOf(schema: Schema): { check: string; maximum?: number }[] {
  return ((schema._zod.def['checks'] as { _zod: { def: { check: string; maximum?: number } } }[] | undefined) ?? []).map((check) => check._zod.def);
}

/**
 * Strings that are not free text, by the field's last name: identifiers, tokens, codes, URLs,
 * e-mail addresses (checked by isValidEmail in the service, so the answer is the SPEC's own
 * result code), passwords. Anything else that is a plain string must be freeText().
 */
const notFreeText =
  /\.(id|ids\[\]|token|loginToken|code|state|iss|identityId|email|newEmail|emails|password|minsideUrl|titleCode|campaign|campaignCode|winback|discountCode|ariaPlanID|bankAccountNumber|file)$/;
/** Loose on the wire on purpose, and parsed again by the service with the domain's form schema (personName). */
const parsedAgainByTheService = new Set(['PUT /api/profile body.givenName', 'PUT /api/profile body.familyName', 'PUT /api/profile body.phoneNumber', 'PUT /api/profile body.birthdate']);

describe('one free-text rule', () => {
  let test: TestApp;
  beforeAll(async () => {
    test = await buildTestApp('pglite');
  });
  afterAll(() => test?.close());

  function requestStrings(): (StringLeaf & { route: string })[] {
    return test.app.routeTable().flatMap((route) => {
      const schema = route.schema as Record<string, Schema | undefined> | undefined;
      if (!schema || route.method === 'HEAD') return [];
      return (['body', 'querystring', 'params'] as const).flatMap((part) => {
        const partSchema = schema[part];
        if (!partSchema || !('_zod' in partSchema)) return [];
        return stringLeaves(partSchema, part).map((leaf) => ({ ...leaf, route: `${route.method} ${route.url}` }));
      });
    });
  }

  it('finds the free-text fields through the route table (names, addresses, complaints, surveys, notices)', () => {
    const free = requestStrings()
      .filter((leaf) => freeTextRegistry.has(leaf.schema))
      .map((leaf) => `${leaf.route} ${leaf.path}`);
    expect(free).toEqual(
      expect.arrayContaining([
        'POST /api/delivery/address body.address.name',
        'POST /api/delivery/address body.address.street',
        'POST /api/order body.deliveryAddress.coName',
        'POST /api/delivery/complaints body.text',
        'DELETE /api/deleteSubscription body.reasonText',
        'POST /api/segment/:id/message body.message',
        'GET /api/business/members/export querystring.q',
      ]),
    );
  });

  it('every string a request carries has a limit', () => {
    const unbounded = requestStrings().filter(({ schema }) => {
      const format = schema._zod.def['format'] !== undefined || checksOf(schema).some((check) => check.check === 'string_format');
      return !format && !freeTextRegistry.has(schema) && !checksOf(schema).some((check) => check.check === 'max_length');
    });
    expect(unbounded.map((leaf) => `${leaf.route} ${leaf.path}`)).toEqual([]);
  });

  it('every plain string that is not an identifier, a token, a code or an address is freeText()', () => {
    const offenders = requestStrings().filter(({ schema, path, route }) => {
      const format = schema._zod.def['format'] !== undefined || checksOf(schema).some((check) => check.check === 'string_format');
      return !format && !freeTextRegistry.has(schema) && !notFreeText.test(path) && !parsedAgainByTheService.has(`${route} ${path}`);
    });
    expect(offenders.map((leaf) => `${leaf.route} ${leaf.path}`)).toEqual([]);
  });
});
