// Member passwords: hashed with argon2id (@node-rs/argon2, OWASP's parameters: 19 MiB, two
// passes, one lane) and held to a policy before they are stored (docs/api.md, "Members"):
//   - 12 to 256 characters;
//   - at least 5 different characters;
//   - not containing the username;
//   - no run of 6 or more characters in sequence ("123456", "abcdef", "fedcba", "qwerty" along a
//     keyboard row);
//   - not a common password: its letters, once digits, spaces and punctuation are taken out,
//     are not one of the words the most leaked passwords are made of (common-passwords.ts).
import { randomBytes } from 'node:crypto';
import { hash, verify, type Algorithm } from '@node-rs/argon2';
import { COMMON_PASSWORD_WORDS } from './common-passwords.ts';

export const MIN_PASSWORD_LENGTH = 12;
export const MAX_PASSWORD_LENGTH = 256;
const MIN_DISTINCT = 5;
const MAX_RUN = 5;
const KEYBOARD_ROWS = [
  '1234567890',
  'qwertyuiop',
  'asdfghjkl',
  'zxcvbnm',
  'qwertzuiop',
  'azertyuiop',
];

// Algorithm.Argon2id (a const enum, which erasable TypeScript cannot read by name).
const ARGON2_ID = 2 as Algorithm;
const ARGON2 = { algorithm: ARGON2_ID, memoryCost: 19_456, timeCost: 2, parallelism: 1 };

export function hashPassword(password: string): Promise<string> {
  return hash(password, ARGON2);
}

// Verified against when the username is unknown, so that both answers take the same time.
let dummyHash: Promise<string> | undefined;

/** Whether the password matches the hash; with no hash, spends the same time and says no. */
export async function passwordMatches(password: string, storedHash?: string): Promise<boolean> {
  dummyHash ??= hashPassword(randomBytes(16).toString('base64url'));
  const target = storedHash ?? (await dummyHash);
  try {
    return (await verify(target, password)) && storedHash !== undefined;
  } catch {
    return false;
  }
}

/** A password the server makes (shown once): 144 random bits, 24 characters, within the policy. */
export function generatePassword(username: string): string {
  for (;;) {
    const password = randomBytes(18).toString('base64url');
    if (passwordProblem(password, username) === undefined) return password;
  }
}

function hasSequence(text: string): boolean {
  let up = 1;
  let down = 1;
  for (let i = 1; i < text.length; i++) {
    const step = text.charCodeAt(i) - text.charCodeAt(i - 1);
    up = step === 1 ? up + 1 : 1;
    down = step === -1 ? down + 1 : 1;
    if (up > MAX_RUN || down > MAX_RUN) return true;
  }
  for (const row of KEYBOARD_ROWS) {
    const reversed = [...row].reverse().join('');
    for (let start = 0; start + MAX_RUN < row.length; start++) {
      const piece = row.slice(start, start + MAX_RUN + 1);
      const back = reversed.slice(start, start + MAX_RUN + 1);
      if (text.includes(piece) || text.includes(back)) return true;
    }
  }
  return false;
}

/** Why the password may not be used, or undefined when it may. */
export function passwordProblem(password: string, username: string): string | undefined {
  const characters = [...password];
  if (characters.length < MIN_PASSWORD_LENGTH)
    return `must be at least ${MIN_PASSWORD_LENGTH} characters long`;
  if (characters.length > MAX_PASSWORD_LENGTH)
    return `must be at most ${MAX_PASSWORD_LENGTH} characters long`;
  if (new Set(characters).size < MIN_DISTINCT)
    return `must have at least ${MIN_DISTINCT} different characters`;
  const lower = password.toLowerCase();
  if (username && lower.includes(username.toLowerCase())) return 'must not contain the username';
  if (hasSequence(lower))
    return `must not contain ${MAX_RUN + 1} or more characters in sequence (such as "123456" or "qwerty")`;
  const letters = lower.replace(/[^\p{L}]/gu, '');
  if (letters === '') return 'must contain letters, not only digits and symbols';
  if (COMMON_PASSWORD_WORDS.has(letters))
    return 'is too common (a well-known password with digits or symbols added)';
  return undefined;
}
