// `npm run deploy:ingress [-- --titles path/to/titles.json]`: writes ingress.yaml with one
// host per offered title of the built-in catalogue, or of the TITLES_FILE an operator uses.
import { readFileSync, writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { createCatalogue, defaultCatalogue } from '@minside/titles';
import { ingressFile, portalHosts, renderIngress } from './ingress.ts';

const { values } = parseArgs({ options: { titles: { type: 'string' } } });
const catalogue = values.titles ? createCatalogue(JSON.parse(readFileSync(values.titles, 'utf8'))) : defaultCatalogue;
writeFileSync(ingressFile, renderIngress(catalogue));
console.warn(`deploy/kubernetes/ingress.yaml: ${portalHosts(catalogue).length} hosts written.`);
