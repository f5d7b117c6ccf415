import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ConfigMap, Secret, Service, ServiceAccount } from 'kubernetes-models/v1';
import { Deployment } from 'kubernetes-models/apps/v1';
import { HorizontalPodAutoscaler } from 'kubernetes-models/autoscaling/v2';
import { Job } from 'kubernetes-models/batch/v1';
import { Ingress } from 'kubernetes-models/networking.k8s.io/v1';
import { PodDisruptionBudget } from 'kubernetes-models/policy/v1';
import ts from 'typescript';
import { parseAllDocuments } from 'yaml';

/**
 * Checks Kubernetes manifests offline against the OpenAPI schemas of Kubernetes 1.27 that
 * `kubernetes-models` ships, in two passes:
 * - its generated validators (JSON Schema: types, required fields, enums, int formats);
 * - its TypeScript declarations, through the compiler's excess-property check, because those
 *   schemas allow unknown fields: a misspelt `readinesProbe` would otherwise pass here and
 *   only be refused by the API server's strict field validation at deploy time.
 */

export const kubernetesDir = path.dirname(fileURLToPath(import.meta.url));

export interface Manifest {
  /** Path relative to deploy/kubernetes. */
  file: string;
  doc: Record<string, unknown>;
}

interface Kind {
  model: { new (data: never): { validate(): void } };
  /** Where the TypeScript declaration of the kind lives, and its interface name. */
  module: string;
  type: string;
}

const kinds: Record<string, Kind> = {
  'v1/ConfigMap': { model: ConfigMap, module: 'kubernetes-models/v1/ConfigMap', type: 'IConfigMap' },
  'v1/Secret': { model: Secret, module: 'kubernetes-models/v1/Secret', type: 'ISecret' },
  'v1/Service': { model: Service, module: 'kubernetes-models/v1/Service', type: 'IService' },
  'v1/ServiceAccount': { model: ServiceAccount, module: 'kubernetes-models/v1/ServiceAccount', type: 'IServiceAccount' },
  'apps/v1/Deployment': { model: Deployment, module: 'kubernetes-models/apps/v1/Deployment', type: 'IDeployment' },
  'autoscaling/v2/HorizontalPodAutoscaler': {
    model: HorizontalPodAutoscaler,
    module: 'kubernetes-models/autoscaling/v2/HorizontalPodAutoscaler',
    type: 'IHorizontalPodAutoscaler',
  },
  'batch/v1/Job': { model: Job, module: 'kubernetes-models/batch/v1/Job', type: 'IJob' },
  'networking.k8s.io/v1/Ingress': { model: Ingress, module: 'kubernetes-models/networking.k8s.io/v1/Ingress', type: 'IIngress' },
  'policy/v1/PodDisruptionBudget': {
    model: PodDisruptionBudget,
    module: 'kubernetes-models/policy/v1/PodDisruptionBudget',
    type: 'IPodDisruptionBudget',
  },
};

function kindOf(doc: Record<string, unknown>): string {
  return `${String(doc['apiVersion'])}/${String(doc['kind'])}`;
}

/** Every YAML document under deploy/kubernetes (recursively), kustomization files apart. */
export function loadManifests(dir = kubernetesDir): Manifest[] {
  const files = readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.yaml') && path.basename(file) !== 'kustomization.yaml')
    .sort();
  return files.flatMap((file) => parseManifests(readFileSync(path.join(dir, file), 'utf8'), file));
}

export function parseManifests(text: string, file: string): Manifest[] {
  return parseAllDocuments(text).map((document, index) => {
    if (document.errors.length > 0) throw new Error(`${file} #${index}: ${document.errors.map((error) => error.message).join('; ')}`);
    const doc: unknown = document.toJS();
    if (typeof doc !== 'object' || doc === null || Array.isArray(doc)) throw new Error(`${file} #${index}: not a mapping`);
    return { file, doc: doc as Record<string, unknown> };
  });
}

/** JSON Schema problems of one manifest; an unknown apiVersion/kind is a problem too. */
export function schemaProblems(manifest: Manifest): string[] {
  const kind = kinds[kindOf(manifest.doc)];
  if (!kind) return [`${manifest.file}: no schema for ${kindOf(manifest.doc)} (add it to deploy/kubernetes/validate.ts)`];
  const { apiVersion: _apiVersion, kind: _kind, ...data } = manifest.doc;
  try {
    new kind.model(data as never).validate();
    return [];
  } catch (error) {
    return [`${manifest.file} (${kindOf(manifest.doc)}): ${(error as Error).message}`];
  }
}

/**
 * Unknown or misplaced fields, at any depth: each manifest becomes a typed object literal in
 * one in-memory TypeScript file, compiled once against the kubernetes-models declarations.
 */
export function fieldProblems(manifests: Manifest[]): string[] {
  const typed = manifests.filter((manifest) => kinds[kindOf(manifest.doc)]);
  const imports = [...new Set(typed.map((manifest) => kinds[kindOf(manifest.doc)]!))].map((kind) => `import type { ${kind.type} } from '${kind.module}';`).join('\n');
  const declarations = typed.map((manifest, index) => `export const m${index}: ${kinds[kindOf(manifest.doc)]!.type} = ${JSON.stringify(manifest.doc)};`);
  // Inside deploy/kubernetes, so module resolution finds the repository's node_modules.
  const virtualFile = path.join(kubernetesDir, '__manifests__.ts');
  const source = `${imports}\n${declarations.join('\n')}\n`;

  const options: ts.CompilerOptions = {
    strict: true,
    noEmit: true,
    skipLibCheck: true,
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.ESNext,
    moduleResolution: ts.ModuleResolutionKind.Bundler,
    types: [],
    lib: ['lib.es2022.d.ts'],
  };
  const host = ts.createCompilerHost(options);
  const getSourceFile = host.getSourceFile.bind(host);
  host.getSourceFile = (fileName, languageVersion, ...rest) =>
    path.resolve(fileName) === virtualFile ? ts.createSourceFile(fileName, source, languageVersion, true) : getSourceFile(fileName, languageVersion, ...rest);
  const fileExists = host.fileExists.bind(host);
  host.fileExists = (fileName) => path.resolve(fileName) === virtualFile || fileExists(fileName);

  const program = ts.createProgram([virtualFile], options, host);
  const diagnostics = [...program.getSyntacticDiagnostics(), ...program.getSemanticDiagnostics()];
  return diagnostics.map((diagnostic) => {
    const message = ts.flattenDiagnosticMessageText(diagnostic.messageText, ' ');
    if (diagnostic.file && diagnostic.start !== undefined && path.resolve(diagnostic.file.fileName) === virtualFile) {
      const line = diagnostic.file.getLineAndCharacterOfPosition(diagnostic.start).line;
      const manifest = typed[line - imports.split('\n').length];
      const at = source.slice(diagnostic.start, diagnostic.start + (diagnostic.length ?? 0));
      return `${manifest?.file ?? '?'} (${manifest ? kindOf(manifest.doc) : '?'}): ${at}: ${message}`;
    }
    return message;
  });
}
