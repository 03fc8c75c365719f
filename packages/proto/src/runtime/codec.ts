import type protobuf from 'protobufjs';

/** A message type's encoder and decoder, typed by the generated interface `T`. */
export interface MessageCodec<T> {
  /** Fully qualified protobuf name without a leading dot, e.g. `stormhook.common.v1.GeoPoint`. */
  readonly typeName: string;
  /** Protobuf binary encoding of `message`. */
  encode(message: T): Uint8Array;
  /** Parses protobuf binary; absent fields come back as their defaults (see {@link DECODE_OPTIONS}). */
  decode(bytes: Uint8Array): T;
  /** A complete message from a partial one: every field left out gets its protobuf default. */
  create(init?: DeepPartial<T>): T;
}

/** `T` with every field optional at every depth: the input of {@link MessageCodec.create}. */
export type DeepPartial<T> = T extends Uint8Array
  ? T
  : T extends ReadonlyArray<infer E>
    ? Array<DeepPartial<E>>
    : T extends object
      ? { [K in keyof T]?: DeepPartial<T[K]> | undefined }
      : T;

/**
 * How decoded messages look: 64-bit integers as numbers, enums as their names, every scalar,
 * repeated and map field present with its default. Absent sub-messages are null, proto3
 * `optional` and oneof fields that are not set are absent. The generated interfaces describe
 * exactly this shape, so the options must not change without regenerating them.
 */
export const DECODE_OPTIONS: Readonly<protobuf.IConversionOptions> = Object.freeze({
  longs: Number,
  enums: String,
  defaults: true,
  arrays: true,
});

const codecs = new WeakMap<protobuf.Root, Map<string, MessageCodec<unknown>>>();

/**
 * The codec of `typeName` in `root`. One instance per type and root, and the type is looked up on
 * first use, so generated modules can create codecs at import time at no cost and in any order.
 */
export function messageCodec<T>(root: protobuf.Root, typeName: string): MessageCodec<T> {
  let perRoot = codecs.get(root);
  if (!perRoot) {
    perRoot = new Map();
    codecs.set(root, perRoot);
  }
  const known = perRoot.get(typeName);
  if (known) return known as MessageCodec<T>;

  let type: protobuf.Type | undefined;
  const resolve = (): protobuf.Type => (type ??= root.lookupType(typeName));
  const codec: MessageCodec<T> = {
    typeName,
    encode(message) {
      const t = resolve();
      // fromObject turns enum names into numbers and numbers into Longs for 64-bit fields.
      return t.encode(t.fromObject(message as object)).finish();
    },
    decode(bytes) {
      const t = resolve();
      return t.toObject(t.decode(bytes), DECODE_OPTIONS) as T;
    },
    create(init) {
      const t = resolve();
      return t.toObject(t.fromObject((init ?? {}) as object), DECODE_OPTIONS) as T;
    },
  };
  perRoot.set(typeName, codec as MessageCodec<unknown>);
  return codec;
}
