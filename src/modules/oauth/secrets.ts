// App secrets: 256 random bits shown once; only a SHA-256 hash is stored. A slow hash buys
// nothing for secrets this long, and a fast one keeps the token endpoint fast.
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

export function generateSecret(): string {
  return randomBytes(32).toString('base64url');
}

export function hashSecret(secret: string): string {
  return createHash('sha256').update(secret, 'utf8').digest('hex');
}

export function secretMatches(candidate: string, storedHash: string): boolean {
  const expected = Buffer.from(storedHash, 'hex');
  const actual = createHash('sha256').update(candidate, 'utf8').digest();
  return expected.length === actual.length && timingSafeEqual(expected, actual);
}
