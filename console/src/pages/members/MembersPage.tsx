// Members of the tenant's back office and their roles. A new member is invited by e-mail address
// (the person chooses their own username and password through the invitation's link, which the
// owner may also copy and hand over); pending invitations are listed, to send again, copy a new
// link or revoke. Members' roles change here; members leave.
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { errorText, focusLater, PageTitle } from '../../components.tsx';
import { useAccess } from '../../session.tsx';
import type { Member } from '../../types.ts';
import { ActionStatus } from '../ActionStatus.tsx';
import '../admin-pages.css';
import { InvitationLinkNotice } from './InvitationLinkNotice.tsx';
import { MemberInvite } from './MemberInvite.tsx';
import { MemberList } from './MemberList.tsx';
import { MemberRolesEdit } from './MemberRolesEdit.tsx';
import {
  loadMembers,
  loadRoles,
  memberKeys,
  removeMember,
  type SentInvitation,
} from './members-api.ts';
import { PendingInvitations } from './PendingInvitations.tsx';

export default function MembersPage() {
  const editable = useAccess().can('security', 'write');
  const queries = useQueryClient();
  const [skip, setSkip] = useState(0);
  const list = useQuery({ queryKey: memberKeys.page(skip), queryFn: () => loadMembers(skip) });
  const roles = useQuery({ queryKey: memberKeys.roles, queryFn: loadRoles });
  // The link of the invitation sent last, shown this once (until Done).
  const [sent, setSent] = useState<SentInvitation>();
  const [editing, setEditing] = useState<Member>();
  const [outcome, setOutcome] = useState<{ text?: string; error?: string }>({});
  const membersResult = useId();

  const showSent = (invitation: SentInvitation) => setSent(invitation);
  const closeSent = () => {
    const shown = sent;
    setSent(undefined);
    if (shown)
      focusLater(() => document.querySelector(`tr[data-invitation="${CSS.escape(shown.Id)}"]`));
  };
  const startEditing = (member: Member) => {
    setOutcome({});
    setEditing(member);
    focusLater(() => document.querySelector('[data-roles-form] input'));
  };
  const stopEditing = (member: Member) => {
    setEditing(undefined);
    focusLater(() =>
      document.querySelector(`button[data-change-roles="${CSS.escape(member.Id)}"]`),
    );
  };
  const saved = (text: string) => {
    setEditing(undefined);
    setOutcome({ text });
    focusLater(() => document.getElementById(membersResult));
  };
  const remove = (member: Member) => {
    if (!confirm(`Remove the member ${member.Username}? They can no longer sign in.`)) return;
    setOutcome({});
    void removeMember(member)
      .then(
        async () => {
          setEditing(undefined);
          setOutcome({ text: `${member.Username} removed.` });
          await queries.invalidateQueries({ queryKey: memberKeys.all });
        },
        (error: unknown) => setOutcome({ error: errorText(error) }),
      )
      .then(() => focusLater(() => document.getElementById(membersResult)));
  };

  return (
    <div className="members-page">
      <PageTitle>Members</PageTitle>
      <ActionStatus id={`${membersResult}-load`} error={list.error ?? roles.error ?? undefined} />
      {sent && <InvitationLinkNotice key={sent.InvitationLink} sent={sent} onClose={closeSent} />}
      {editable && roles.data && <MemberInvite roles={roles.data} onSent={showSent} />}
      {editable && <PendingInvitations onSent={showSent} />}
      {editing && roles.data && (
        <div data-roles-form="">
          <MemberRolesEdit
            key={editing.Id}
            member={editing}
            roles={roles.data}
            onSaved={saved}
            onCancel={() => stopEditing(editing)}
          />
        </div>
      )}
      <ActionStatus id={membersResult} text={outcome.text} error={outcome.error} />
      <MemberList
        list={list}
        skip={skip}
        onPage={setSkip}
        editable={editable}
        onChangeRoles={startEditing}
        onRemove={remove}
      />
    </div>
  );
}
