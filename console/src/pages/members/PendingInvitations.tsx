// The invitations not accepted yet, with when each link expires: send one again (a new link; the
// earlier one stops working), copy its link (sent again for a new one, shown once), revoke it.
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { errorText, focusLater, Loading, PagedTable, Section } from '../../components.tsx';
import { scrolling } from '../scrolling-table.tsx';
import {
  loadInvitations,
  memberKeys,
  PAGE_SIZE,
  resendInvitation,
  revokeInvitation,
  roleNames,
  when,
  type Invitation,
  type SentInvitation,
} from './members-api.ts';
import { ActionStatus } from '../ActionStatus.tsx';

export function PendingInvitations(props: { onSent: (sent: SentInvitation) => void }) {
  const queries = useQueryClient();
  const [skip, setSkip] = useState(0);
  const list = useQuery({
    queryKey: memberKeys.invitationPage(skip),
    queryFn: () => loadInvitations(skip),
  });
  const [outcome, setOutcome] = useState<{ text?: string; error?: string }>({});
  const [busy, setBusy] = useState(false);
  const resultId = useId();

  /** Runs an action on an invitation; its outcome (a sentence or the failure) takes the focus. */
  const act = (action: () => Promise<string | undefined>) =>
    void (async () => {
      setBusy(true);
      setOutcome({});
      try {
        const text = await action();
        setOutcome({ text });
        await queries.invalidateQueries({ queryKey: memberKeys.invitations });
        if (text !== undefined) focusLater(() => document.getElementById(resultId));
      } catch (error) {
        setOutcome({ error: errorText(error) });
        focusLater(() => document.getElementById(resultId));
      } finally {
        setBusy(false);
      }
    })();
  /** Sends again: a new link; shown (InvitationLinkNotice) when asked for or when no e-mail left. */
  const sendAgain = async (invitation: Invitation, showLink: boolean) => {
    const sent = await resendInvitation(invitation.Id);
    if (showLink || !sent.EmailSent) {
      props.onSent(sent);
      return undefined;
    }
    return `Invitation sent again to ${invitation.Email}, with a new link; the earlier link no longer works.`;
  };
  const resend = (invitation: Invitation) => act(() => sendAgain(invitation, false));
  const copyLink = (invitation: Invitation) => {
    const question = `Make a new invitation link for ${invitation.Email}? It is shown once, and the earlier link stops working.`;
    if (confirm(question)) act(() => sendAgain(invitation, true));
  };
  const revoke = (invitation: Invitation) => {
    if (!confirm(`Revoke the invitation to ${invitation.Email}? Its link stops working.`)) return;
    act(async () => {
      await revokeInvitation(invitation.Id);
      return `Invitation to ${invitation.Email} revoked; its link no longer works.`;
    });
  };

  const open = list.data;
  return (
    <Section title="Pending invitations">
      <ActionStatus id={resultId} text={outcome.text} error={list.error ?? outcome.error} />
      {list.isPending && <Loading />}
      {open && open.TotalCount === 0 && <p className="muted">No pending invitations.</p>}
      {open && open.TotalCount > 0 && (
        <PagedTable
          caption="Pending invitations"
          total={open.TotalCount}
          headers={['E-mail address', 'Roles', 'Link', 'Actions']}
          skip={skip}
          take={PAGE_SIZE}
          onPage={setSkip}
          wrap={scrolling('Pending invitations, scrollable')}
        >
          {open.Results.map((invitation) => (
            <tr key={invitation.Id} data-invitation={invitation.Id} tabIndex={-1}>
              <td className="wrap">
                {invitation.Email}
                {invitation.Name && <span className="muted"> ({invitation.Name})</span>}
              </td>
              <td>{roleNames(invitation.Roles)}</td>
              <td>
                {invitation.IsExpired ? (
                  <span className="expired">Expired {when(invitation.ExpirationDate)}</span>
                ) : (
                  <>Works until {when(invitation.ExpirationDate)}</>
                )}
              </td>
              <td>
                <button type="button" disabled={busy} onClick={() => resend(invitation)}>
                  Resend<span className="visually-hidden"> to {invitation.Email}</span>
                </button>
                <button type="button" disabled={busy} onClick={() => copyLink(invitation)}>
                  Copy invitation link
                  <span className="visually-hidden"> for {invitation.Email}</span>
                </button>
                <button
                  type="button"
                  className="danger"
                  disabled={busy}
                  onClick={() => revoke(invitation)}
                >
                  Revoke
                  <span className="visually-hidden"> the invitation to {invitation.Email}</span>
                </button>
              </td>
            </tr>
          ))}
        </PagedTable>
      )}
    </Section>
  );
}
