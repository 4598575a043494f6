// The Redis the tests use for shared rate limits (CI machines run one on loopback).
import { connect } from 'node:net';

export const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

/** Redis answers here (CI machines run one); a machine without it skips the shared-budget case. */
export async function redisAnswers(): Promise<boolean> {
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
