// The Redis the tests use for shared rate limits (CI machines run one on loopback).
import { connect } from 'node:net';

export const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

/**
 * Redis answers here. A machine without it skips the Redis cases, but not CI (CI=true): .ci/run
 * starts Redis, so a CI run where it does not answer fails here rather than skip them unseen.
 */
export async function redisAnswers(): Promise<boolean> {
  const answers = await connects();
  if (!answers && process.env.CI)
    throw new Error(`CI is set and Redis does not answer at ${REDIS_URL} (.ci/run starts it)`);
  return answers;
}

function connects(): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(Number(new URL(REDIS_URL).port || 6379), new URL(REDIS_URL).hostname);
    socket.setTimeout(1_000);
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
    socket.once('timeout', () => {
      socket.destroy();
      resolve(false);
    });
  });
}
