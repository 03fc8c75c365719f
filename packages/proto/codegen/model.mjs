// Turns a protobufjs Root into the plain model the renderers need: packages with their messages,
// enums and services, and the TypeScript names under which each is generated.
import protobuf from 'protobufjs';
import { sourcePath } from './load.mjs';

const byName = (a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);

/** Names the generated code itself relies on; a message or enum must not shadow them. */
const RESERVED = new Set(['Record', 'Array', 'Promise', 'AsyncIterable', 'Uint8Array', 'Buffer', 'root']);

/** `stormhook.common.v1` -> `commonV1`, `grpc.health.v1` -> `grpcHealthV1`: the namespace in index.ts. */
export function packageAlias(pkg) {
  const parts = pkg.split('.');
  if (parts[0] === 'stormhook' && parts.length > 1) parts.shift();
  const words = parts.flatMap((part) => part.split('_')).filter(Boolean);
  return words.map((word, i) => (i === 0 ? word : word[0].toUpperCase() + word.slice(1))).join('');
}

export function lowerFirst(name) {
  return name[0].toLowerCase() + name.slice(1);
}

/** The namespace that declares `obj` as a proto package (its nearest ancestor that is no message). */
export function packageOf(obj) {
  let parent = obj.parent;
  while (parent instanceof protobuf.Type) parent = parent.parent;
  return parent.fullName.replace(/^\./, '');
}

/** Nested declarations are flattened: `HealthCheckResponse.ServingStatus` -> `HealthCheckResponse_ServingStatus`. */
export function localName(obj) {
  const pkg = packageOf(obj);
  return obj.fullName
    .replace(/^\./, '')
    .slice(pkg.length + 1)
    .split('.')
    .join('_');
}

/** All messages, enums and services of the Root, grouped by package, every list sorted by name. */
export function buildModel(root, protoDir) {
  const packages = new Map();
  const packageFor = (name) => {
    let pkg = packages.get(name);
    if (!pkg) {
      pkg = { name, alias: packageAlias(name), files: new Set(), messages: [], enums: [], services: [] };
      packages.set(name, pkg);
    }
    return pkg;
  };
  const visit = (ns) => {
    for (const obj of ns.nestedArray) {
      if (obj instanceof protobuf.Type || obj instanceof protobuf.Enum || obj instanceof protobuf.Service) {
        const pkg = packageFor(packageOf(obj));
        if (obj.filename) pkg.files.add(sourcePath(protoDir, obj.filename));
        const entry = { name: localName(obj), obj };
        if (obj instanceof protobuf.Type) pkg.messages.push(entry);
        else if (obj instanceof protobuf.Enum) pkg.enums.push(entry);
        else pkg.services.push(entry);
      }
      if (obj instanceof protobuf.Namespace && !(obj instanceof protobuf.Service)) visit(obj);
    }
  };
  visit(root);

  const list = [...packages.values()].sort(byName);
  const aliases = new Map();
  for (const pkg of list) {
    pkg.messages.sort(byName);
    pkg.enums.sort(byName);
    pkg.services.sort(byName);
    pkg.files = [...pkg.files].sort();
    const clash = aliases.get(pkg.alias);
    if (clash) throw new Error(`packages ${clash} and ${pkg.name} would both be exported as '${pkg.alias}'`);
    aliases.set(pkg.alias, pkg.name);
    const names = new Map();
    for (const { name, obj } of [...pkg.messages, ...pkg.enums, ...pkg.services.map((s) => ({ name: serviceConst(s.obj), obj: s.obj }))]) {
      if (RESERVED.has(name)) throw new Error(`${obj.fullName.slice(1)}: the name '${name}' is reserved by the generated code`);
      const other = names.get(name);
      if (other) throw new Error(`${other} and ${obj.fullName.slice(1)} would both be generated as '${name}'`);
      names.set(name, obj.fullName.slice(1));
    }
  }
  return list;
}

/** `Health` -> `HealthService`, `AreaService` -> `AreaService`: the ServiceDefinition constant. */
export function serviceConst(service) {
  return service.name.endsWith('Service') ? service.name : `${service.name}Service`;
}
