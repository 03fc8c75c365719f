import { hash as argon2Hash, parseOptions, verify as argon2Verify, type ParsedHashOptions } from '@node-rs/argon2';
import { HashMemoryBudget } from './hash-memory-budget.js';
import { isScryptPhc, parseScrypt, scryptMemoryBytes, verifyScrypt } from './scrypt-legacy.js';

/** Argon2id cost; memory in KiB. */
export interface Argon2Params {
  memoryKiB: number;
  iterations: number;
  parallelism: number;
}

/** OWASP password storage cheat sheet, first Argon2id option: m=19 MiB, t=2, p=1. */
export const PRODUCTION_ARGON2: Argon2Params = { memoryKiB: 19_456, iterations: 2, parallelism: 1 };

/** Hashes in flight may hold this much memory together unless the service says otherwise. */
export const DEFAULT_HASH_MEMORY_BUDGET_BYTES = 64 * 1024 * 1024;

const ARGON2ID = 2; // Algorithm.Argon2id: the package's enum is `const`, which isolatedModules cannot read.
const OUTPUT_BYTES = 32;
// A tampered record must not make verify allocate gigabytes or spin for minutes.
const MAX_STORED_MEMORY_KIB = 256 * 1024;
const MAX_STORED_ITERATIONS = 16;
const MAX_STORED_PARALLELISM = 16;

function parseArgon2(phc: string): ParsedHashOptions | undefined {
  if (!phc.startsWith('$argon2')) return undefined;
  try {
    const parsed = parseOptions(phc);
    if (parsed.memoryCost > MAX_STORED_MEMORY_KIB || parsed.timeCost > MAX_STORED_ITERATIONS || parsed.parallelism > MAX_STORED_PARALLELISM) return undefined;
    return parsed;
  } catch {
    return undefined;
  }
}

/**
 * Argon2id password hashing in PHC form (`$argon2id$v=19$m=19456,t=2,p=1$<salt>$<hash>`), through a
 * shared memory budget so that a burst of logins cannot take more than the budget at once. Records
 * from before Argon2id (`$scrypt$...`) and records with other costs keep verifying; {@link needsRehash}
 * tells the login to store a fresh hash.
 */
export class PasswordHasher {
  private readonly budget: HashMemoryBudget;

  constructor(
    private readonly params: Argon2Params = PRODUCTION_ARGON2,
    budget: HashMemoryBudget | number = DEFAULT_HASH_MEMORY_BUDGET_BYTES,
  ) {
    this.budget = typeof budget === 'number' ? new HashMemoryBudget(budget) : budget;
  }

  /** Hashes running and waiting for memory now. */
  get inFlight(): { running: number; waiting: number; bytesInUse: number } {
    return this.budget.state;
  }

  async hash(password: string): Promise<string> {
    const { memoryKiB, iterations, parallelism } = this.params;
    return this.budget.run(memoryKiB * 1024, () =>
      argon2Hash(password.normalize('NFC'), { algorithm: ARGON2ID, memoryCost: memoryKiB, timeCost: iterations, parallelism, outputLen: OUTPUT_BYTES }),
    );
  }

  /** False for a mismatch and for a malformed or hostile stored string; comparisons are constant-time. */
  async verify(password: string, phc: string): Promise<boolean> {
    const normalised = password.normalize('NFC');
    if (isScryptPhc(phc)) {
      const legacy = parseScrypt(phc);
      if (!legacy) return false;
      return this.budget.run(scryptMemoryBytes(legacy.params), () => verifyScrypt(normalised, legacy));
    }
    const parsed = parseArgon2(phc);
    if (!parsed) return false;
    return this.budget.run(parsed.memoryCost * 1024, () => argon2Verify(phc, normalised).catch(() => false));
  }

  /** True for a scrypt record, and for an Argon2 record made with other parameters than the current ones. */
  needsRehash(phc: string): boolean {
    const parsed = parseArgon2(phc);
    if (!parsed || parsed.algorithm !== ARGON2ID) return true;
    const { memoryKiB, iterations, parallelism } = this.params;
    return parsed.memoryCost !== memoryKiB || parsed.timeCost !== iterations || parsed.parallelism !== parallelism || parsed.outputLen !== OUTPUT_BYTES;
  }
}
