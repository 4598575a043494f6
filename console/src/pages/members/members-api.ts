// The members module's calls for the Members page: members, roles and invitations, each under a
// query key of its own (a change invalidates the lists it touches).
import { call, client } from '../../api.ts';
import type { Member } from '../../types.ts';

export const PAGE_SIZE = 50;

export const memberKeys = {
  all: ['members'] as const,
  page: (skip: number) => ['members', 'page', skip] as const,
  roles: ['roles'] as const,
  invitations: ['invitations'] as const,
  invitationPage: (skip: number) => ['invitations', 'page', skip] as const,
};

export const loadMembers = (skip: number) =>
  call(
    client.GET('/management/security/members', { params: { query: { skip, take: PAGE_SIZE } } }),
  );

export const loadRoles = async () => (await call(client.GET('/management/security/roles'))).Results;

export const loadInvitations = (skip: number) =>
  call(
    client.GET('/management/security/members/invitations', {
      params: { query: { skip, take: PAGE_SIZE } },
    }),
  );

export type Invitation = Awaited<ReturnType<typeof loadInvitations>>['Results'][number];
/** The answer of inviting or sending again: with the link, this once. */
export type SentInvitation = Awaited<ReturnType<typeof resendInvitation>>;

export const resendInvitation = (id: string) =>
  call(
    client.POST('/management/security/members/invitations/{id}/resend', {
      params: { path: { id } },
    }),
  );

export const revokeInvitation = (id: string) =>
  call(
    client.DELETE('/management/security/members/invitations/{id}', { params: { path: { id } } }),
  );

export const removeMember = (member: Member) =>
  call(client.DELETE('/management/security/members/{id}', { params: { path: { id: member.Id } } }));

/** The short names of roles ("Analyst"), their descriptions' first words. */
export const roleNames = (roles: { Description: string }[]) =>
  roles.map((r) => r.Description.split(':')[0]).join(', ');

export const when = (iso: string) =>
  new Date(iso).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });
