import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { stampMatches, writeStamp } from '../infra/stamp.js';
import { runTool, tail } from './run-tool.js';
import { toolsDir } from './tools.js';

/**
 * Kubernetes JSON schemas for kubeconform. kubeconform downloads them from GitHub by default,
 * which this network cannot reach; the PyPI package kubernetes-validate ships the same
 * openapi2jsonschema output for every recent Kubernetes minor, so it is fetched with pip (a
 * registry client) and the versions we validate against are unpacked from its wheel.
 */
export const SCHEMA_PACKAGE = { name: 'kubernetes-validate', version: '1.37.0' };

/** The chart's kubeVersion floor and the newest release the package knows: validate both ends. */
export const KUBERNETES_VERSIONS = ['1.29.0', '1.37.0'] as const;

export const schemasDir = join(toolsDir, `k8s-schemas-${SCHEMA_PACKAGE.version}`);

/** kubeconform's -schema-location template for the unpacked schemas. */
export function schemaLocation(dir = schemasDir): string {
  return `${dir}/{{ .NormalizedKubernetesVersion }}-standalone{{ .StrictSuffix }}/{{ .ResourceKind }}{{ .KindSuffix }}.json`;
}

/**
 * The package's schemas carry `$id: https://kubernetes.io/api/...` and refer to
 * `/api/_definitions.json`, so a validator resolves them against kubernetes.io (unreachable here).
 * Dropping `$id` and making the reference relative lets them resolve to the sibling file on disk.
 */
export function fileRelativeSchema(text: string): string {
  const schema = JSON.parse(text) as Record<string, unknown>;
  delete schema['$id'];
  return JSON.stringify(schema).replaceAll('"/api/_definitions.json#', '"_definitions.json#');
}

// Unpacks only the strict schemas of the versions asked for (the wheel holds a dozen versions).
const UNPACK = `
import sys, zipfile, os
wheel, out, versions = sys.argv[1], sys.argv[2], sys.argv[3].split(',')
prefix = 'kubernetes_validate/kubernetes-json-schema/'
wanted = {f'v{v}-local-strict/': f'v{v}-standalone-strict/' for v in versions}
count = 0
with zipfile.ZipFile(wheel) as z:
    for name in z.namelist():
        if not name.startswith(prefix) or name.endswith('/'):
            continue
        rest = name[len(prefix):]
        for src, dst in wanted.items():
            if rest.startswith(src):
                target = os.path.join(out, dst, rest[len(src):])
                os.makedirs(os.path.dirname(target), exist_ok=True)
                with open(target, 'wb') as f:
                    f.write(z.read(name))
                count += 1
print(count)
`;

export async function ensureSchemas(log: (m: string) => void): Promise<string> {
  const stamp = join(schemasDir, '.installed');
  const inputs = `${SCHEMA_PACKAGE.name}==${SCHEMA_PACKAGE.version} ${KUBERNETES_VERSIONS.join(',')} v2`;
  if (stampMatches(stamp, inputs)) return schemasDir;
  log(`fetching Kubernetes JSON schemas (${SCHEMA_PACKAGE.name} ${SCHEMA_PACKAGE.version} from PyPI) for ${KUBERNETES_VERSIONS.join(', ')}`);
  rmSync(schemasDir, { recursive: true, force: true });
  const download = join(schemasDir, 'download');
  mkdirSync(download, { recursive: true });
  const spec = `${SCHEMA_PACKAGE.name}==${SCHEMA_PACKAGE.version}`;
  const pip = await runTool('python3', ['-m', 'pip', 'download', '--no-deps', '--only-binary=:all:', '--dest', download, spec]);
  if (pip.code !== 0) throw new Error(`cannot fetch ${spec} with pip (needs python3 with pip and PyPI reachable):\n${tail(pip)}`);
  const wheel = readdirSync(download).find((f) => f.endsWith('.whl'));
  if (!wheel) throw new Error(`pip download ${spec} left no wheel in ${download}`);
  const unpack = await runTool('python3', ['-c', UNPACK, join(download, wheel), schemasDir, KUBERNETES_VERSIONS.join(',')]);
  if (unpack.code !== 0 || Number(unpack.stdout.trim()) === 0) throw new Error(`cannot unpack schemas from ${wheel}:\n${tail(unpack)}`);
  for (const version of KUBERNETES_VERSIONS) {
    const dir = join(schemasDir, `v${version}-standalone-strict`);
    if (!existsSync(join(dir, 'deployment-apps-v1.json'))) throw new Error(`${wheel} holds no schemas for Kubernetes ${version}`);
    for (const file of readdirSync(dir)) {
      const path = join(dir, file);
      writeFileSync(path, fileRelativeSchema(readFileSync(path, 'utf8')));
    }
  }
  rmSync(download, { recursive: true, force: true });
  writeStamp(stamp, inputs);
  return schemasDir;
}
