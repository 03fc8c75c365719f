import protobuf from 'protobufjs';

/**
 * Builds the protobufjs Root every codec reads from the JSON descriptor embedded in the generated
 * code, so no .proto file is read at run time. Resolving once here turns a dangling type reference
 * into an error at import instead of at the first encode.
 */
export function buildRoot(descriptor: Record<string, unknown>): protobuf.Root {
  // Typed loosely on purpose: protobufjs' own INamespace typings lack keys its toJSON() writes
  // (keyType, protoName), and the descriptor is generated from that very toJSON().
  const root = protobuf.Root.fromJSON(descriptor as protobuf.INamespace);
  root.resolveAll();
  return root;
}
