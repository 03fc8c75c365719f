// The naming and documentation rules of the contract tree (proto/README.md). They run before
// every generation and every --check, so a rule broken in a pull request fails CI with a list of
// what to fix rather than a surprise in a consumer.
import protobuf from 'protobufjs';
import { sourcePath } from './load.mjs';

/** Standard protocols kept verbatim from upstream; only the location rule applies to them. */
const VENDORED_PACKAGES = new Set(['grpc.health.v1', 'google.protobuf']);

const OUR_PACKAGE = /^stormhook\.[a-z][a-z0-9_]*(\.[a-z][a-z0-9_]*)*\.v[1-9][0-9]*$/;
const PASCAL = /^[A-Z][A-Za-z0-9]*$/;
const SNAKE = /^[a-z][a-z0-9]*(_[a-z0-9]+)*$/;
const UPPER_SNAKE = /^[A-Z][A-Z0-9]*(_[A-Z0-9]+)*$/;

function upperSnake(pascal) {
  return pascal.replace(/([a-z0-9])([A-Z])/g, '$1_$2').toUpperCase();
}

/** Returns one line per problem, sorted; an empty list means the tree is clean. */
export function lint(root, protoDir) {
  const problems = [];
  const where = (obj) => sourcePath(protoDir, obj.filename);
  const report = (obj, text) => problems.push(`${where(obj)}: ${obj.fullName.replace(/^\./, '')}: ${text}`);

  const checkLocation = (obj, pkg) => {
    const dir = where(obj).split('/').slice(0, -1).join('.');
    if (dir !== pkg) report(obj, `package ${pkg} must live in proto/${pkg.split('.').join('/')}/`);
  };

  const visitType = (type, pkg) => {
    if (!PASCAL.test(type.name)) report(type, 'message names are PascalCase');
    for (const field of type.fieldsArray) {
      const protoName = field.protoName ?? field.name;
      if (!SNAKE.test(protoName)) report(type, `field ${protoName} must be lower_snake_case`);
      if (!field.comment?.trim()) report(type, `field ${protoName} needs a comment saying what it holds and its unit`);
    }
    for (const nested of type.nestedArray) visit(nested, pkg);
  };

  const visitEnum = (en) => {
    if (!PASCAL.test(en.name)) report(en, 'enum names are PascalCase');
    const prefix = `${upperSnake(en.name)}_`;
    for (const [name, number] of Object.entries(en.values)) {
      if (!UPPER_SNAKE.test(name)) report(en, `value ${name} must be UPPER_SNAKE_CASE`);
      if (!name.startsWith(prefix)) report(en, `value ${name} must start with ${prefix}`);
      if (number === 0 && name !== `${prefix}UNSPECIFIED`) report(en, `the zero value must be ${prefix}UNSPECIFIED`);
    }
  };

  const visitService = (service) => {
    if (!service.name.endsWith('Service') || !PASCAL.test(service.name)) report(service, 'service names are PascalCase and end in Service');
    for (const method of service.methodsArray) {
      if (!PASCAL.test(method.name)) report(service, `rpc ${method.name} must be PascalCase`);
      if (!method.comment?.trim()) report(service, `rpc ${method.name} needs a comment`);
    }
  };

  const visit = (obj, pkg) => {
    if (obj instanceof protobuf.Type) visitType(obj, pkg);
    else if (obj instanceof protobuf.Enum) visitEnum(obj);
    else if (obj instanceof protobuf.Service) visitService(obj);
  };

  const visitNamespace = (ns) => {
    for (const obj of ns.nestedArray) {
      const isDeclaration = obj instanceof protobuf.Type || obj instanceof protobuf.Enum || obj instanceof protobuf.Service;
      if (isDeclaration) {
        const pkg = ns.fullName.replace(/^\./, '');
        if (pkg === 'google.protobuf') continue; // bundled with protobufjs, not part of our tree
        checkLocation(obj, pkg);
        if (VENDORED_PACKAGES.has(pkg)) continue;
        if (!OUR_PACKAGE.test(pkg)) report(obj, `package ${pkg} must be stormhook.<domain>.v<N>`);
        visit(obj, pkg);
      } else if (obj instanceof protobuf.Namespace) {
        visitNamespace(obj);
      }
    }
  };
  visitNamespace(root);
  return [...new Set(problems)].sort();
}
