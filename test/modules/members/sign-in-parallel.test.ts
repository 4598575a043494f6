// The sign-in limits hold for attempts sent in parallel: each attempt claims its slot of the
// per-address (20) and per-username (5) counts in one statement before its password is checked,
// so N attempts at once never check more passwords than the limit allows.
import { setTimeout as sleep } from 'node:timers/promises';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  ADDRESS_FAILURES,
  MemberSignIn,
  USERNAME_FAILURES,
  type SignInOutcome,
} from '../../../src/modules/members/member-sign-in.ts';
import { passwordMatches } from '../../../src/modules/members/passwords.ts';
import { useTestApi, useTenant } from '../../support/test-api.ts';
import {
  GOOD_PASSWORD,
  authorizeParams,
  createMember,
  formOf,
  getAuthorize,
  newPkce,
  postAuthorize,
} from './members-fixtures.ts';

const api = useTestApi();
const acme = useTenant(api, 'acme');
let tenantId: number;

beforeAll(async () => {
  tenantId = (await api.services.tenants.findByName('acme'))!.id;
  await createMember(api, acme, 'carol', ['analyst']);
  await createMember(api, acme, 'dave', ['analyst']);
});

/** A sign-in service on the test database whose password checks are counted (and slowed). */
function countingSignIn(delayMs = 20): { signIn: MemberSignIn; checks: () => number } {
  let checks = 0;
  const signIn = new MemberSignIn(api.database.handle, async (password, hash) => {
    checks++;
    await sleep(delayMs);
    return passwordMatches(password, hash);
  });
  return { signIn, checks: () => checks };
}

const tally = (outcomes: SignInOutcome[]) => ({
  invalid: outcomes.filter((o) => 'refused' in o && o.refused === 'invalid').length,
  locked: outcomes.filter((o) => 'refused' in o && o.refused === 'locked').length,
  signedIn: outcomes.filter((o) => 'member' in o).length,
});

async function addressFailures(address: string): Promise<number | undefined> {
  const [row] = await api.database.handle.query<{ failures: number }>(
    `select failures from member_signin_failures
      where tenant_id = $1 and kind = 'address' and key = $2`,
    [tenantId, address],
  );
  return row?.failures;
}

describe('parallel sign-ins from one address (POST /oauth/authorize)', () => {
  it('checks at most 20 passwords of 40 wrong sign-ins sent at once: 20 answer 401, 20 answer 429', async () => {
    const address = '198.51.100.40';
    // Every browser first loads its page (its own CSRF token and cookie) ...
    const forms = await Promise.all(
      Array.from({ length: 40 }, async (_, i) => {
        const params = authorizeParams(api, acme, newPkce());
        const { csrf, cookie } = formOf(await getAuthorize(api, acme, params));
        return { params, csrf, cookie, username: `spray-parallel-${i}` };
      }),
    );
    // ... then all 40 submit at once, each a wrong password for another username.
    const answers = await Promise.all(
      forms.map(({ params, csrf, cookie, username }) =>
        postAuthorize(
          api,
          acme,
          { ...params, csrf_token: csrf, username, password: 'wrong-Guess-abc1' },
          cookie,
          address,
        ),
      ),
    );
    const statuses = answers.map((a) => a.statusCode);
    expect({
      wrongCredentials: statuses.filter((s) => s === 401).length,
      lockedOut: statuses.filter((s) => s === 429).length,
    }).toEqual({ wrongCredentials: ADDRESS_FAILURES, lockedOut: 40 - ADDRESS_FAILURES });
    expect(await addressFailures(address)).toBe(ADDRESS_FAILURES);

    // The address is locked now, for the right password of a real member too.
    const params = authorizeParams(api, acme, newPkce());
    const { csrf, cookie } = formOf(await getAuthorize(api, acme, params));
    const locked = await postAuthorize(
      api,
      acme,
      { ...params, csrf_token: csrf, username: 'carol', password: GOOD_PASSWORD },
      cookie,
      address,
    );
    expect(locked.statusCode).toBe(429);
  });
});

describe('parallel sign-ins, counted at the password check', () => {
  it('checks at most 20 passwords of 40 parallel wrong sign-ins from one address', async () => {
    const { signIn, checks } = countingSignIn();
    const address = '198.51.100.41';
    const outcomes = await Promise.all(
      Array.from({ length: 40 }, (_, i) =>
        signIn.signIn(tenantId, `parallel-${i}`, 'wrong-Guess-abc1', address),
      ),
    );
    expect({ passwordsChecked: checks(), ...tally(outcomes) }).toEqual({
      passwordsChecked: ADDRESS_FAILURES,
      invalid: ADDRESS_FAILURES,
      locked: 40 - ADDRESS_FAILURES,
      signedIn: 0,
    });
    expect(await addressFailures(address)).toBe(ADDRESS_FAILURES);
  });

  it('checks at most 5 passwords of 20 parallel guesses of one username from many addresses', async () => {
    const { signIn, checks } = countingSignIn();
    const outcomes = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        signIn.signIn(tenantId, 'Dave', `wrong-Guess-${i}x`, `198.51.100.${100 + i}`),
      ),
    );
    expect({ passwordsChecked: checks(), ...tally(outcomes) }).toEqual({
      passwordsChecked: USERNAME_FAILURES,
      invalid: USERNAME_FAILURES,
      locked: 20 - USERNAME_FAILURES,
      signedIn: 0,
    });
    // The locked username's attempts took no slot of their addresses.
    let counted = 0;
    for (let i = 0; i < 20; i++) counted += (await addressFailures(`198.51.100.${100 + i}`)) ?? 0;
    expect(counted).toBe(USERNAME_FAILURES);
  });

  it('gives back the slot of a successful sign-in: it does not count as a failure', async () => {
    const { signIn } = countingSignIn(0);
    const address = '198.51.100.42';
    for (let i = 0; i < ADDRESS_FAILURES - 1; i++)
      expect(await signIn.signIn(tenantId, `almost-${i}`, 'wrong-Guess-abc1', address)).toEqual({
        refused: 'invalid',
      });
    // The 20th slot: the right password signs in and frees it again.
    expect(tally([await signIn.signIn(tenantId, 'carol', GOOD_PASSWORD, address)])).toEqual({
      invalid: 0,
      locked: 0,
      signedIn: 1,
    });
    expect(await addressFailures(address)).toBe(ADDRESS_FAILURES - 1);
    // So the 20th failure is still tried, and only then is the address locked.
    expect(await signIn.signIn(tenantId, 'almost-x', 'wrong-Guess-abc1', address)).toEqual({
      refused: 'invalid',
    });
    const locked = await signIn.signIn(tenantId, 'carol', GOOD_PASSWORD, address);
    expect(tally([locked]).locked).toBe(1);
    expect((locked as { retryAfterSeconds: number }).retryAfterSeconds).toBeGreaterThan(800);
  });
});
