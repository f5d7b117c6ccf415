import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { defaultCatalogue } from '@minside/titles';
import { ingressFile, portalHosts, renderIngress } from './ingress.ts';
import type { IConfigMap, IContainer, IPodSpec, ISecret, IService } from 'kubernetes-models/v1';
import type { IDeployment } from 'kubernetes-models/apps/v1';
import type { IHorizontalPodAutoscaler } from 'kubernetes-models/autoscaling/v2';
import type { IJob } from 'kubernetes-models/batch/v1';
import type { IIngress } from 'kubernetes-models/networking.k8s.io/v1';
import type { IPodDisruptionBudget } from 'kubernetes-models/policy/v1';
import { fieldProblems, kubernetesDir, loadManifests, parseManifests, schemaProblems } from './validate.ts';

const repo = path.resolve(kubernetesDir, '../..');
const read = (file: string) => readFileSync(path.join(repo, file), 'utf8');

const manifests = loadManifests();

/** The one manifest of a kind, typed as its schema (which the first tests check it against). */
function only<T>(kind: string): T {
  const found = manifests.filter((m) => m.doc['kind'] === kind);
  if (found.length !== 1) throw new Error(`expected exactly one ${kind}, found ${found.length}`);
  return found[0]!.doc as T;
}

interface Kustomization {
  apiVersion: string;
  kind: string;
  namespace: string;
  resources: string[];
  images: { name: string; newName: string; newTag: string }[];
}

const deployment = only<IDeployment>('Deployment');
const job = only<IJob>('Job');
const podSpec: IPodSpec = deployment.spec!.template.spec!;
const container: IContainer = podSpec.containers[0]!;
const jobSpec: IPodSpec = job.spec!.template.spec!;
const jobContainer: IContainer = jobSpec.containers[0]!;
const configData: Record<string, string> = only<IConfigMap>('ConfigMap').data!;
const secretExample = only<ISecret>('Secret');
const secretData: Record<string, string> = secretExample.stringData!;

/** The variables the server reads: the keys of `envSchema` in config.ts. */
function serverEnvNames(): Set<string> {
  const source = read('apps/server/src/config.ts');
  const block = source.slice(source.indexOf('const envSchema = z.object({'), source.indexOf('\n});', source.indexOf('const envSchema')));
  return new Set([...block.matchAll(/^ {2}([A-Z][A-Z0-9_]*):/gm)].map((match) => match[1]!));
}

describe('Kubernetes manifests: schema', () => {
  it('finds every manifest of the deployment (app, migration Job, Secret template)', () => {
    expect(manifests.map((m) => `${m.file}:${String(m.doc['kind'])}`).sort()).toEqual([
      'configmap.yaml:ConfigMap',
      'deployment.yaml:Deployment',
      'hpa.yaml:HorizontalPodAutoscaler',
      'ingress.yaml:Ingress',
      'migrate/job.yaml:Job',
      'pdb.yaml:PodDisruptionBudget',
      'secret.example.yaml:Secret',
      'service.yaml:Service',
      'serviceaccount.yaml:ServiceAccount',
    ]);
  });

  it('every manifest validates against the Kubernetes OpenAPI schema', () => {
    expect(manifests.flatMap(schemaProblems)).toEqual([]);
  });

  it('no manifest has an unknown or misplaced field', () => {
    expect(fieldProblems(manifests)).toEqual([]);
  });

  it('an invalid manifest fails both checks', () => {
    const broken = parseManifests(
      [
        'apiVersion: apps/v1',
        'kind: Deployment',
        'metadata: {name: broken}',
        'spec:',
        '  template:', // no selector: required
        '    spec:',
        '      containers:',
        '        - name: web',
        '          image: minside',
        '          ports: [{containerPort: "3000"}]', // a string, not an integer
        '---',
        'apiVersion: v1',
        'kind: Service',
        'metadata: {name: typo}',
        'spec:',
        '  ports: [{port: 80}]',
        '  selectr: {app: minside}', // misspelt
        '---',
        'apiVersion: autoscaling/v2',
        'kind: HorizontalPodAutoscalr', // no such kind
        'metadata: {name: x}',
      ].join('\n'),
      'broken.yaml',
    );
    const schema = broken.flatMap(schemaProblems);
    expect(schema.join('\n')).toMatch(/must have required property 'selector'|must have required property selector/);
    expect(schema.join('\n')).toContain('containerPort must be integer');
    expect(schema.join('\n')).toContain('no schema for autoscaling/v2/HorizontalPodAutoscalr');
    const fields = fieldProblems(broken);
    expect(fields.join('\n')).toContain('\'"selectr"\' does not exist');
  });

  it('the kustomizations list every applied manifest, and app and Job run the same image', () => {
    const app = parse(read('deploy/kubernetes/kustomization.yaml')) as Kustomization;
    const migrate = parse(read('deploy/kubernetes/migrate/kustomization.yaml')) as Kustomization;
    for (const kustomization of [app, migrate]) {
      expect(kustomization.apiVersion).toBe('kustomize.config.k8s.io/v1beta1');
      expect(kustomization.kind).toBe('Kustomization');
      expect(kustomization.namespace).toBe('minside');
    }
    const applied = [...app.resources, ...migrate.resources.map((file) => `migrate/${file}`)].sort();
    // The Secret template is never applied: an apply must not overwrite real secret values.
    expect(applied).toEqual(
      manifests
        .map((m) => m.file)
        .filter((file) => file !== 'secret.example.yaml')
        .sort(),
    );
    expect(migrate.images).toEqual(app.images);
    expect(app.images.map((image) => image.name)).toEqual([container.image]);
    expect(jobContainer.image).toBe(container.image);
  });
});

// kubectl's built-in kustomize renders offline; machines without kubectl skip this one.
const kubectl = spawnSync('kubectl', ['version', '--client'], { encoding: 'utf8' }).status === 0;

describe('Kubernetes manifests: kustomize', () => {
  it.skipIf(!kubectl)('both kustomizations render with the release image, every object in the namespace', () => {
    const app = parse(read('deploy/kubernetes/kustomization.yaml')) as Kustomization;
    const image = `${app.images[0]!.newName}:${app.images[0]!.newTag}`;
    for (const [dir, count] of [
      ['deploy/kubernetes', app.resources.length],
      ['deploy/kubernetes/migrate', 1],
    ] as const) {
      const rendered = spawnSync('kubectl', ['kustomize', path.join(repo, dir)], { encoding: 'utf8' });
      expect(rendered.stderr).toBe('');
      expect(rendered.status).toBe(0);
      const objects = parseManifests(rendered.stdout, dir);
      expect(objects).toHaveLength(count);
      expect(objects.map((m) => (m.doc['metadata'] as { namespace?: string }).namespace)).toEqual(objects.map(() => 'minside'));
      expect(rendered.stdout.match(/image: .*/g)).toEqual([`image: ${image}`]);
      expect(objects.flatMap(schemaProblems)).toEqual([]);
    }
  });
});

describe('Kubernetes manifests: they fit the server', () => {
  it('probes: startup and liveness on /healthz, readiness on /readyz, all on the named container port', () => {
    expect(container.startupProbe?.httpGet).toEqual({ path: '/healthz', port: 'http' });
    expect(container.livenessProbe?.httpGet).toEqual({ path: '/healthz', port: 'http' });
    expect(container.readinessProbe?.httpGet).toEqual({ path: '/readyz', port: 'http' });
    // /readyz gives the database 2 s (modules/health/routes.ts); the probe must wait longer.
    expect(container.readinessProbe?.timeoutSeconds).toBeGreaterThan(2);
    expect(container.ports).toEqual([{ name: 'http', containerPort: Number(configData['PORT']), protocol: 'TCP' }]);
  });

  it('graceful termination covers preStop plus the server drain limit of bin/server.ts', () => {
    const drain = /shutdown took too long[\s\S]{0,120}?\},\s*([\d_]+)\)/.exec(read('apps/server/src/bin/server.ts'));
    expect(drain, 'the forced-exit timeout in bin/server.ts').not.toBeNull();
    const drainSeconds = Number(drain![1]!.replaceAll('_', '')) / 1000;
    const preStop = container.lifecycle?.preStop?.exec?.command ?? [];
    expect(preStop[0]).toBe('sleep');
    expect(podSpec.terminationGracePeriodSeconds).toBeGreaterThan(Number(preStop[1]) + drainSeconds);
  });

  it('runs as non-root with a read-only root file system, no privileges, no API token, with resources', () => {
    for (const [spec, c] of [
      [podSpec, container],
      [jobSpec, jobContainer],
    ] as const) {
      expect(spec.securityContext).toMatchObject({ runAsNonRoot: true, runAsUser: 1000, seccompProfile: { type: 'RuntimeDefault' } });
      expect(spec.automountServiceAccountToken).toBe(false);
      expect(c.securityContext).toEqual({
        allowPrivilegeEscalation: false,
        readOnlyRootFilesystem: true,
        runAsNonRoot: true,
        capabilities: { drop: ['ALL'] },
      });
      expect(c.resources?.requests).toMatchObject({ cpu: expect.any(String), memory: expect.any(String) });
      expect(c.resources?.limits).toMatchObject({ memory: expect.any(String) });
      expect(c.volumeMounts).toEqual([{ name: 'tmp', mountPath: '/tmp' }]);
    }
  });

  it('Service, HPA and PDB point at the Deployment and its pods', () => {
    const labels = deployment.spec!.template.metadata!.labels!;
    const selector = deployment.spec!.selector.matchLabels;
    expect(selector).toEqual({
      'app.kubernetes.io/name': labels['app.kubernetes.io/name'],
      'app.kubernetes.io/component': labels['app.kubernetes.io/component'],
    });
    const service = only<IService>('Service');
    expect(service.spec?.selector).toEqual(selector);
    expect(service.spec?.ports?.[0]?.targetPort).toBe(container.ports?.[0]?.name);

    const hpa = only<IHorizontalPodAutoscaler>('HorizontalPodAutoscaler');
    expect(hpa.spec?.scaleTargetRef).toEqual({ apiVersion: 'apps/v1', kind: 'Deployment', name: deployment.metadata?.name });
    // The HPA owns the count; a replicas field would reset it at every apply.
    expect(deployment.spec?.replicas).toBeUndefined();
    const minReplicas = hpa.spec?.minReplicas ?? 1;
    expect(minReplicas).toBeGreaterThanOrEqual(2);

    const pdb = only<IPodDisruptionBudget>('PodDisruptionBudget');
    expect(pdb.spec?.selector?.matchLabels).toEqual(selector);
    expect(pdb.spec?.maxUnavailable).toBeLessThan(minReplicas);
  });

  it('the Ingress serves minside.{domain} of every offered title, and only those, to the Service', () => {
    const ingress = only<IIngress>('Ingress');
    const hosts = portalHosts(defaultCatalogue);
    expect(hosts).toHaveLength(defaultCatalogue.offered().length);
    expect(hosts.length).toBeGreaterThanOrEqual(59);
    expect(hosts).toContain('minside.adressa.no');
    for (const excluded of defaultCatalogue.all().filter((title) => title.excluded)) {
      expect(hosts).not.toContain(`minside.${excluded.baseUrl}`);
    }
    const rules = ingress.spec?.rules ?? [];
    expect(rules.map((rule) => rule.host)).toEqual(hosts);
    expect(ingress.spec?.tls).toEqual([{ hosts, secretName: 'minside-tls' }]);
    for (const rule of rules) {
      expect(rule.http?.paths).toEqual([{ path: '/', pathType: 'Prefix', backend: { service: { name: 'minside', port: { name: 'http' } } } }]);
    }
    // The committed file is exactly what `npm run deploy:ingress` writes from the catalogue.
    expect(readFileSync(ingressFile, 'utf8'), 'ingress.yaml is stale: run `npm run deploy:ingress`').toBe(renderIngress(defaultCatalogue));
    // PUBLIC_URL (the embedded provider's issuer) is one of the served hosts.
    expect(hosts).toContain(new URL(configData['PUBLIC_URL']!).hostname);
  });

  it('sets only variables the server reads, and secrets only from the Secret, by name', () => {
    const known = serverEnvNames();
    expect(known.has('DATABASE_URL')).toBe(true);
    // Node's own (REDIS_URL is the server's since ADR 018; REDIS_KEY_PREFIX keeps its default).
    expect(known.has('REDIS_URL')).toBe(true);
    const allowed = new Set([...known, 'NODE_ENV', 'NODE_OPTIONS']);
    const env = container.env ?? [];
    const jobEnv = jobContainer.env ?? [];
    const names = [...Object.keys(configData), ...env.map((e) => e.name), ...jobEnv.map((e) => e.name)];
    // OTEL_*: the OpenTelemetry SDK's own variables (apps/server/src/telemetry.ts).
    expect(names.filter((name) => !allowed.has(name) && !name.startsWith('OTEL_'))).toEqual([]);

    const secretKeys = Object.keys(secretData);
    for (const variable of [...env, ...jobEnv]) {
      const keyRef = variable.valueFrom?.secretKeyRef;
      if (!keyRef) continue;
      expect(keyRef.name).toBe(secretExample.metadata?.name);
      expect(keyRef.key).toBe(variable.name);
      expect(secretKeys).toContain(keyRef.key);
      // Only the database is required; every other secret turns a feature on.
      expect(keyRef.optional ?? false).toBe(keyRef.key !== 'DATABASE_URL');
    }
    expect(new Set(env.filter((e) => e.valueFrom).map((e) => e.name))).toEqual(new Set(secretKeys));
    expect(secretKeys).toEqual(expect.arrayContaining(['DATABASE_URL', 'REDIS_URL', 'OIDC_CLIENT_SECRET', 'OPERATOR_TOKEN', 'SMTP_URL', 'PAYLINK_SECRET']));
  });

  it('carries no secret values: the template is empty and the ConfigMap holds no secret', () => {
    expect(Object.values(secretData).every((value) => value === '')).toBe(true);
    expect(secretExample.data).toBeUndefined();
    const secretLike = /SECRET|TOKEN|PASSWORD|DATABASE_URL|REDIS_URL|SMTP_URL/;
    expect(Object.keys(configData).filter((key) => secretLike.test(key))).toEqual([]);
    expect((container.env ?? []).filter((e) => secretLike.test(e.name) && e.value !== undefined)).toEqual([]);
    expect(configData['SEED_DEMO_DATA']).toBe('off');
  });

  it('pays through Vipps MobilePay’s production API, never the test provider (fake money, issue 20): its keys from the Secret', () => {
    expect(configData['NODE_ENV']).toBe('production');
    expect(configData['PAYMENT_PROVIDER']).toBe('vipps');
    expect(configData['VIPPS_BASE_URL']).toBe('https://api.vipps.no');
    expect(Object.keys(secretData)).toEqual(expect.arrayContaining(['VIPPS_CLIENT_ID', 'VIPPS_CLIENT_SECRET', 'VIPPS_SUBSCRIPTION_KEY', 'VIPPS_MERCHANT_SERIAL_NUMBER']));
    // The migration Job reads its configuration for migrating only (bin/migrate.ts), which needs no provider.
    expect(read('apps/server/src/bin/migrate.ts')).toMatch(/loadConfig\(process\.env, \{ purpose: 'migrate' \}\)/);
    expect((jobContainer.env ?? []).map((e) => e.name)).not.toContain('PAYMENT_PROVIDER');
  });

  it('the migration Job runs the migrate entry the server build produces', () => {
    expect(jobContainer.command).toEqual(['node', 'apps/server/dist/migrate.js']);
    expect(read('apps/server/build.mjs')).toMatch(/migrate: 'src\/bin\/migrate\.ts'/);
    expect(existsSync(path.join(repo, 'apps/server/src/bin/migrate.ts'))).toBe(true);
    expect(jobSpec.restartPolicy).toBe('Never');
  });
});
