// Renders one proto package as one TypeScript module: an interface plus a codec per message, a
// string-literal union plus a value object per enum, a ServiceDefinition plus a handler interface
// per service.
import protobuf from 'protobufjs';
import { localName, lowerFirst, packageAlias, packageOf, serviceConst } from './model.mjs';
import { doc, header, propertyKey, quote } from './render-text.mjs';

const SCALARS = {
  double: 'number',
  float: 'number',
  int32: 'number',
  uint32: 'number',
  sint32: 'number',
  fixed32: 'number',
  sfixed32: 'number',
  // 64-bit integers decode with `longs: Number`: exact up to 2^53 - 1, which covers epoch
  // milliseconds and every counter we keep. Use a string field for anything larger.
  int64: 'number',
  uint64: 'number',
  sint64: 'number',
  fixed64: 'number',
  sfixed64: 'number',
  bool: 'boolean',
  string: 'string',
  bytes: 'Uint8Array',
};

const fullName = (obj) => obj.fullName.replace(/^\./, '');

export function renderPackage(pkg) {
  const imports = new Map(); // alias -> package name, for references into other packages

  const ref = (obj) => {
    const name = localName(obj);
    const owner = packageOf(obj);
    if (owner === pkg.name) return name;
    const alias = packageAlias(owner);
    imports.set(alias, owner);
    return `${alias}.${name}`;
  };

  const valueType = (field) => {
    if (field.resolvedType) return ref(field.resolvedType);
    const scalar = SCALARS[field.type];
    if (!scalar) throw new Error(`${fullName(field)}: unsupported type ${field.type}`);
    return scalar;
  };

  const body = [];
  // Messages and enums interleaved by name, so a nested enum sits right after its message.
  const declarations = [...pkg.messages, ...pkg.enums].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  for (const { name, obj } of declarations) {
    body.push(obj instanceof protobuf.Enum ? renderEnum(name, obj) : renderMessage(name, obj, valueType));
  }
  for (const { obj } of pkg.services) body.push(renderService(obj, ref));

  const needs = (word) => body.some((text) => text.includes(word));
  const runtime = [needs('messageCodec<') && 'messageCodec', needs('methodDefinition<') && 'methodDefinition'].filter(Boolean);
  const head = [header(pkg.files)];
  if (runtime.includes('methodDefinition')) head.push(`import { methodDefinition } from '../runtime/service.js';`);
  if (runtime.includes('messageCodec')) head.push(`import { messageCodec } from '../runtime/codec.js';`);
  for (const [alias, owner] of [...imports].sort(([a], [b]) => (a < b ? -1 : 1))) {
    head.push(`import type * as ${alias} from './${owner}.js';`);
  }
  if (runtime.length) head.push(`import { root } from './root.js';`);
  return `${head.join('\n')}\n\n${body.join('\n')}`;
}

function renderMessage(name, type, valueType) {
  const oneofs = type.oneofsArray.filter((oneof) => !oneof.isProto3Optional);
  const notes = oneofs.map((oneof) => `Oneof \`${oneof.name}\`: at most one of ${oneof.fieldsArray.map((f) => `\`${f.name}\``).join(', ')} is set.`);
  const lines = [];
  lines.push(doc([type.comment, notes.length && type.comment ? '' : null, ...notes]));
  if (!type.fieldsArray.length) {
    lines.push(`export type ${name} = Record<string, never>;\n`);
  } else {
    lines.push(`export interface ${name} {\n`);
    for (const field of type.fieldsArray) lines.push(renderField(field, valueType));
    lines.push('}\n');
  }
  lines.push(`\n/** Codec of {@link ${name}} (\`${fullName(type)}\`). */\n`);
  lines.push(`export const ${name} = messageCodec<${name}>(root, ${quote(fullName(type))});\n`);
  return lines.join('');
}

function renderField(field, valueType) {
  const element = valueType(field);
  const key = propertyKey(field.name);
  const notes = [];
  let declaration;
  if (field.map) {
    // protobufjs gives map keys as object keys, which are strings whatever the proto key type.
    declaration = `${key}: Record<string, ${element}>;`;
    if (field.keyType !== 'string') notes.push(`Keys are ${field.keyType} values written as decimal strings.`);
  } else if (field.repeated) {
    declaration = `${key}: ${element}[];`;
  } else if (field.partOf && field.partOf.isProto3Optional) {
    declaration = `${key}?: ${element};`;
    notes.push('Optional: absent when not set.');
  } else if (field.partOf) {
    declaration = `${key}?: ${element};`;
    notes.push(`Member of oneof \`${field.partOf.name}\`.`);
  } else if (field.resolvedType instanceof protobuf.Type) {
    // Decoding fills defaults, and protobufjs' default for an absent sub-message is null.
    declaration = `${key}?: ${element} | null;`;
  } else {
    declaration = `${key}: ${element};`;
  }
  const comment = field.comment ? [field.comment] : [];
  const text = notes.length ? [...comment, ...(comment.length ? [''] : []), ...notes] : comment;
  return `${doc(text, '  ')}  ${declaration}\n`;
}

function renderEnum(name, en) {
  const entries = Object.entries(en.values);
  const lines = [];
  lines.push(doc([en.comment]));
  lines.push(`export type ${name} =\n${entries.map(([value]) => `  | ${quote(value)}`).join('\n')};\n`);
  lines.push(`\n/** The values of {@link ${name}} (\`${fullName(en)}\`), usable like an enum. */\n`);
  lines.push(`export const ${name} = {\n`);
  for (const [value, number] of entries) {
    const comment = en.comments?.[value];
    lines.push(doc([comment, comment ? '' : null, `Wire value ${number}.`], '  '));
    lines.push(`  ${propertyKey(value)}: ${quote(value)},\n`);
  }
  lines.push('} as const;\n');
  return lines.join('');
}

function renderService(service, ref) {
  const constName = serviceConst(service);
  const pkgName = fullName(service).slice(0, -service.name.length - 1);
  const methods = service.methodsArray;
  const lines = [];
  lines.push(doc([service.comment, service.comment ? '' : null, `gRPC service \`${fullName(service)}\`.`]));
  lines.push(`export const ${constName} = {\n`);
  for (const method of methods) {
    const req = ref(method.resolvedRequestType);
    const res = ref(method.resolvedResponseType);
    const rs = Boolean(method.requestStream);
    const ss = Boolean(method.responseStream);
    lines.push(doc([method.comment], '  '));
    lines.push(`  ${propertyKey(lowerFirst(method.name))}: methodDefinition<${req}, ${res}, ${rs}, ${ss}>({\n`);
    lines.push(`    path: ${quote(`/${pkgName}.${service.name}/${method.name}`)},\n`);
    lines.push(`    originalName: ${quote(method.name)},\n`);
    lines.push(`    requestStream: ${rs},\n`);
    lines.push(`    responseStream: ${ss},\n`);
    lines.push(`    requestType: messageCodec<${req}>(root, ${quote(fullName(method.resolvedRequestType))}),\n`);
    lines.push(`    responseType: messageCodec<${res}>(root, ${quote(fullName(method.resolvedResponseType))}),\n`);
    lines.push('  }),\n');
  }
  lines.push('};\n');
  lines.push(`\n/** What a server implements for {@link ${constName}}; \`Call\` is the per-call context its server passes. */\n`);
  lines.push(`export interface ${constName}Handlers<Call = unknown> {\n`);
  for (const method of methods) {
    const req = ref(method.resolvedRequestType);
    const res = ref(method.resolvedResponseType);
    const input = method.requestStream ? `requests: AsyncIterable<${req}>` : `request: ${req}`;
    const output = method.responseStream ? `AsyncIterable<${res}>` : `Promise<${res}>`;
    lines.push(doc([method.comment], '  '));
    lines.push(`  ${propertyKey(lowerFirst(method.name))}(${input}, call: Call): ${output};\n`);
  }
  lines.push('}\n');
  return lines.join('');
}
