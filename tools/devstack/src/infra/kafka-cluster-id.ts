import { randomBytes } from 'node:crypto';

/**
 * A new KRaft cluster id: 16 random bytes in URL-safe base64 without padding, never starting with '-'.
 * The storage tool's argument parser reads an id such as "-m1QS…" as an option and refuses the format
 * (CI failed on exactly that, about one start in 64). Kafka's own Uuid.randomUuid draws again for the same
 * reason, and so do we.
 */
export function newClusterId(random: (size: number) => Buffer = randomBytes): string {
  for (;;) {
    const id = random(16).toString('base64url');
    if (!id.startsWith('-')) return id;
  }
}
