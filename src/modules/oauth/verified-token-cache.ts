// Tokens verified on this instance, kept until they expire so that a request pays no signature
// check. They are indexed by app (or member) and by tenant, so that an invalidation finds its
// tokens without walking the whole cache; entries leave the index when the cache drops them.
import { LRUCache } from 'lru-cache';
import type { Principal } from '../../domain/principal.ts';

export interface CachedToken {
  audience: string;
  principal: Principal;
}

const subjectKey = (tenantId: number, subjectId: string) => `${tenantId}/${subjectId}`;
const subjectOf = (principal: Principal) =>
  subjectKey(principal.tenantId, principal.memberId ?? principal.appId);

export class VerifiedTokenCache {
  private readonly tokensBySubject = new Map<string, Set<string>>();
  private readonly subjectsByTenant = new Map<number, Set<string>>();
  private readonly cache = new LRUCache<string, CachedToken>({
    max: 50_000,
    ttlAutopurge: false,
    dispose: (entry, token) => this.unindex(token, entry.principal),
  });
  /** Bumped by every invalidation, so a verification that raced one does not cache its result. */
  generation = 0;
  /**
   * While other instances' invalidations cannot be read (the poll fails: on Citus, a worker
   * down), nothing is answered from the cache or kept in it: every token is checked against the
   * database, its own tenant's rows, so a token revoked elsewhere is refused at once.
   */
  private suspended = false;

  get(token: string): CachedToken | undefined {
    return this.suspended ? undefined : this.cache.get(token);
  }

  /** Empties the cache and keeps it empty until resume() (see `suspended`). */
  suspend(): void {
    this.generation++;
    this.suspended = true;
    this.cache.clear();
  }

  resume(): void {
    this.suspended = false;
  }

  get isSuspended(): boolean {
    return this.suspended;
  }

  delete(token: string): void {
    this.cache.delete(token);
  }

  set(token: string, entry: CachedToken, ttl: number): void {
    if (this.suspended) return;
    this.cache.set(token, entry, { ttl });
    this.index(token, entry.principal);
  }

  /** Drops cached tokens of an app or a member (or one token of it). */
  forget(tenantId: number, subjectId: string, jti?: string | null): void {
    this.generation++;
    for (const token of [...(this.tokensBySubject.get(subjectKey(tenantId, subjectId)) ?? [])]) {
      if (!jti || this.cache.peek(token)?.principal.jti === jti) this.cache.delete(token);
    }
  }

  /** Drops every cached token of a tenant (the tenant was deleted). */
  forgetTenant(tenantId: number): void {
    this.generation++;
    for (const key of [...(this.subjectsByTenant.get(tenantId) ?? [])]) {
      for (const token of [...(this.tokensBySubject.get(key) ?? [])]) this.cache.delete(token);
    }
  }

  get size(): number {
    return this.cache.size;
  }

  private index(token: string, principal: Principal): void {
    const key = subjectOf(principal);
    let tokens = this.tokensBySubject.get(key);
    if (!tokens) {
      tokens = new Set();
      this.tokensBySubject.set(key, tokens);
      let subjects = this.subjectsByTenant.get(principal.tenantId);
      if (!subjects) this.subjectsByTenant.set(principal.tenantId, (subjects = new Set()));
      subjects.add(key);
    }
    tokens.add(token);
  }

  private unindex(token: string, principal: Principal): void {
    const key = subjectOf(principal);
    const tokens = this.tokensBySubject.get(key);
    if (!tokens) return;
    tokens.delete(token);
    if (tokens.size > 0) return;
    this.tokensBySubject.delete(key);
    const subjects = this.subjectsByTenant.get(principal.tenantId);
    subjects?.delete(key);
    if (subjects?.size === 0) this.subjectsByTenant.delete(principal.tenantId);
  }
}
