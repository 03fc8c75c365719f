// Loads every .proto below a directory into one protobufjs Root, deterministically.
import { readdirSync } from 'node:fs';
import { isAbsolute, join, relative, sep } from 'node:path';
import protobuf from 'protobufjs';

/** Every .proto file below `dir`, as sorted paths relative to it with forward slashes. */
export function findProtoFiles(dir) {
  const found = [];
  const walk = (current) => {
    for (const entry of readdirSync(current, { withFileTypes: true })) {
      const full = join(current, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (entry.isFile() && entry.name.endsWith('.proto')) found.push(toPosix(relative(dir, full)));
    }
  };
  walk(dir);
  // Plain code-point order, not localeCompare: the output must not depend on the machine's locale.
  return found.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
}

export function toPosix(path) {
  return path.split(sep).join('/');
}

/** Where a declaration came from, relative to the proto root; protobufjs' bundled google/* files keep their own name. */
export function sourcePath(protoDir, filename) {
  if (!filename) return '<unknown>';
  return isAbsolute(filename) ? toPosix(relative(protoDir, filename)) : toPosix(filename);
}

/**
 * Parses the files into a resolved Root. Imports are resolved against `dir` (like protoc's -I), so
 * a file imports another by its path from the proto root: `import "stormhook/common/v1/geo.proto";`.
 * Double-slash comments are kept because they become the TSDoc of the generated code.
 */
export function loadRoot(dir, files) {
  const root = new protobuf.Root();
  root.resolvePath = (_origin, target) => (isAbsolute(target) ? target : join(dir, target));
  root.loadSync(files, { alternateCommentMode: true });
  root.resolveAll();
  return root;
}
