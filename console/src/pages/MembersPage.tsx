// Members of the tenant's back office and their roles. A new member is invited by e-mail address
// (the person chooses their own username and password through the link of the e-mail); pending
// invitations are listed, to send again or revoke. Members' roles change here; members leave.
import { useId, useRef, useState, type FormEvent, type ReactNode } from 'react';
import { call, client } from '../api.ts';
import {
  ErrorMessage,
  Field,
  focusLater,
  Loading,
  PagedTable,
  PageTitle,
  Section,
  useAction,
  useLoad,
} from '../components.tsx';
import { useAccess } from '../session.tsx';
import type { Member, Role } from '../types.ts';
import { focusFailure } from './focus.ts';
import './admin-pages.css';

const TAKE = 50;
/**
 * A table scrolls inside its own box when it is wider than the page (never the page); the box
 * takes the keyboard focus so that it can be scrolled without a pointer.
 */
const scrolling = (label: string) => (table: ReactNode) => (
  <div className="table-scroll" role="region" aria-label={label} tabIndex={0}>
    {table}
  </div>
);
const INVITE_LABELS = { Email: 'E-mail address', Name: 'Name', Roles: 'Roles' };
const ROLE_LABELS = { Roles: 'Roles' };

type Invitation = Awaited<ReturnType<typeof loadInvitations>>['Results'][number];

function loadInvitations(skip: number) {
  return call(
    client.GET('/management/security/members/invitations', {
      params: { query: { skip, take: TAKE } },
    }),
  );
}

/** The short names of roles ("Analyst"), their descriptions' first words. */
const roleNames = (roles: { Description: string }[]) =>
  roles.map((r) => r.Description.split(':')[0]).join(', ');

const when = (iso: string) =>
  new Date(iso).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });

/** The roles as checkboxes; the field's error under them, each box marked invalid with it. */
function RoleChecks(props: {
  roles: Role[];
  chosen: Set<string>;
  onChange: (chosen: Set<string>) => void;
  legend: string;
  error?: string | undefined;
}) {
  const errorId = `${useId()}-error`;
  return (
    <fieldset className="checks" aria-describedby={props.error ? errorId : undefined}>
      <legend>{props.legend}</legend>
      {props.roles.map((role) => (
        <label key={role.Id}>
          <input
            type="checkbox"
            checked={props.chosen.has(role.Id)}
            aria-invalid={props.error ? true : undefined}
            onChange={(e) => {
              const next = new Set(props.chosen);
              if (e.target.checked) next.add(role.Id);
              else next.delete(role.Id);
              props.onChange(next);
            }}
          />
          {role.Description}
        </label>
      ))}
      {props.error && (
        <p className="field-error" id={errorId}>
          {props.error}
        </p>
      )}
    </fieldset>
  );
}

/** A sentence saying what an action did, which takes the focus (role status: also announced). */
function Status({ text, id }: { text: string | undefined; id: string }) {
  if (!text) return null;
  return (
    <p className="ok" role="status" tabIndex={-1} id={id}>
      {text}
    </p>
  );
}

export default function MembersPage() {
  const editable = useAccess().can('security', 'write');
  const [skip, setSkip] = useState(0);
  const [invitationSkip, setInvitationSkip] = useState(0);
  const list = useLoad(
    () =>
      call(client.GET('/management/security/members', { params: { query: { skip, take: TAKE } } })),
    [skip],
  );
  const invitations = useLoad(
    () => (editable ? loadInvitations(invitationSkip) : Promise.resolve(undefined)),
    [invitationSkip, editable],
  );
  const roles = useLoad(
    async () => (await call(client.GET('/management/security/roles'))).Results,
    [],
  );
  const inviting = useAction(INVITE_LABELS);
  const pending = useAction();
  const changing = useAction(ROLE_LABELS);
  const [draft, setDraft] = useState({ Email: '', Name: '' });
  const [draftRoles, setDraftRoles] = useState(new Set<string>());
  const [editing, setEditing] = useState<{ member: Member; roles: Set<string> }>();
  const [inviteStatus, setInviteStatus] = useState<string>();
  const [pendingStatus, setPendingStatus] = useState<string>();
  const [memberStatus, setMemberStatus] = useState<string>();
  const ids = { invite: useId(), pending: useId(), members: useId(), roles: useId() };
  const inviteForm = useRef<HTMLFormElement>(null);
  const rolesForm = useRef<HTMLDivElement>(null);

  const byId = (id: string) => () => document.getElementById(id);
  const row = (kind: 'invitation' | 'member', id: string) => () =>
    document.querySelector(`tr[data-${kind}="${CSS.escape(id)}"]`);

  const invite = (event: FormEvent) => {
    event.preventDefault();
    setInviteStatus(undefined);
    void inviting
      .run(async () => {
        const created = await call(
          client.POST('/management/security/members/invitations', {
            body: {
              Email: draft.Email.trim(),
              Name: draft.Name.trim() || null,
              Roles: [...draftRoles].map((Id) => ({ Id })),
            },
          }),
        );
        setDraft({ Email: '', Name: '' });
        setDraftRoles(new Set());
        setInviteStatus(
          `Invitation sent to ${created.Email}. It is listed under Pending invitations until it is accepted.`,
        );
        invitations.reload();
        focusLater(row('invitation', created.Id));
      })
      .then((done) => {
        if (!done) focusFailure(() => inviteForm.current, byId(ids.invite));
      });
  };

  const resend = (invitation: Invitation) => {
    setPendingStatus(undefined);
    void pending
      .run(async () => {
        await call(
          client.POST('/management/security/members/invitations/{id}/resend', {
            params: { path: { id: invitation.Id } },
          }),
        );
        setPendingStatus(
          `Invitation sent again to ${invitation.Email}, with a new link; the earlier link no longer works.`,
        );
        invitations.reload();
      })
      .then(() => focusLater(byId(ids.pending)));
  };

  const revoke = (invitation: Invitation) => {
    if (!confirm(`Revoke the invitation to ${invitation.Email}? Its link stops working.`)) return;
    setPendingStatus(undefined);
    void pending
      .run(async () => {
        await call(
          client.DELETE('/management/security/members/invitations/{id}', {
            params: { path: { id: invitation.Id } },
          }),
        );
        setPendingStatus(`Invitation to ${invitation.Email} revoked; its link no longer works.`);
        invitations.reload();
      })
      .then(() => focusLater(byId(ids.pending)));
  };

  const startEditing = (member: Member) => {
    setMemberStatus(undefined);
    setEditing({ member, roles: new Set(member.Roles.map((r) => r.Id)) });
    focusLater(() => rolesForm.current?.querySelector('input'));
  };
  const stopEditing = (member: Member) => {
    setEditing(undefined);
    focusLater(() =>
      document.querySelector(`button[data-change-roles="${CSS.escape(member.Id)}"]`),
    );
  };
  const saveRoles = () => {
    if (!editing) return;
    const { member } = editing;
    void changing
      .run(async () => {
        await call(
          client.PUT('/management/security/members/{id}', {
            params: { path: { id: member.Id } },
            body: {
              Username: member.Username,
              Name: member.Name,
              Roles: [...editing.roles].map((Id) => ({ Id })),
            },
          }),
        );
        setEditing(undefined);
        setMemberStatus(`Roles of ${member.Username} saved.`);
        list.reload();
        focusLater(byId(ids.members));
      })
      .then((done) => {
        if (!done) focusFailure(() => rolesForm.current, byId(ids.roles));
      });
  };
  const remove = (member: Member) => {
    if (!confirm(`Remove the member ${member.Username}? They can no longer sign in.`)) return;
    setMemberStatus(undefined);
    void changing
      .run(async () => {
        await call(
          client.DELETE('/management/security/members/{id}', {
            params: { path: { id: member.Id } },
          }),
        );
        setEditing(undefined);
        setMemberStatus(`${member.Username} removed.`);
        list.reload();
      })
      .then(() => focusLater(byId(ids.members)));
  };

  const open = invitations.data;
  return (
    <div className="members-page">
      <PageTitle>Members</PageTitle>
      <ErrorMessage error={list.error ?? roles.error} />
      {editable && roles.data && (
        <Section title="Invite a member">
          <p className="muted">
            We e-mail the person a link; they choose their own username and password, then sign in.
            The link works once, for 7 days.
          </p>
          <div tabIndex={-1} id={ids.invite} className="action-result">
            <ErrorMessage error={inviting.message} />
            <Status text={inviteStatus} id={`${ids.invite}-status`} />
          </div>
          <form onSubmit={invite} ref={inviteForm} noValidate>
            <div className="row">
              <Field
                label="E-mail address"
                type="email"
                required
                value={draft.Email}
                error={inviting.fieldError('Email')}
                onChange={(Email) => {
                  inviting.clearField('Email');
                  setDraft({ ...draft, Email });
                }}
              />
              <Field
                label="Name (optional)"
                value={draft.Name}
                error={inviting.fieldError('Name')}
                onChange={(Name) => {
                  inviting.clearField('Name');
                  setDraft({ ...draft, Name });
                }}
              />
            </div>
            <RoleChecks
              legend="Roles"
              roles={roles.data}
              chosen={draftRoles}
              error={inviting.fieldError('Roles')}
              onChange={(chosen) => {
                inviting.clearField('Roles');
                setDraftRoles(chosen);
              }}
            />
            <button type="submit" disabled={inviting.busy}>
              Send invitation
            </button>
          </form>
        </Section>
      )}
      {editable && (
        <Section title="Pending invitations">
          <div tabIndex={-1} id={ids.pending} className="action-result">
            <ErrorMessage error={invitations.error ?? pending.message} />
            <Status text={pendingStatus} id={`${ids.pending}-status`} />
          </div>
          {invitations.loading && !open && <Loading />}
          {open && open.TotalCount === 0 && <p className="muted">No pending invitations.</p>}
          {open && open.TotalCount > 0 && (
            <PagedTable
              caption="Pending invitations"
              total={open.TotalCount}
              headers={['E-mail address', 'Roles', 'Link', 'Actions']}
              skip={invitationSkip}
              take={TAKE}
              onPage={setInvitationSkip}
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
                    <button
                      type="button"
                      disabled={pending.busy}
                      onClick={() => resend(invitation)}
                    >
                      Resend<span className="visually-hidden"> to {invitation.Email}</span>
                    </button>
                    <button
                      type="button"
                      className="danger"
                      disabled={pending.busy}
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
      )}
      {editing && roles.data && (
        <Section title={`Roles of ${editing.member.Username}`}>
          <div tabIndex={-1} id={ids.roles} className="action-result">
            <ErrorMessage error={changing.message} />
          </div>
          <div ref={rolesForm}>
            <RoleChecks
              legend={`Roles of ${editing.member.Username}`}
              roles={roles.data}
              chosen={editing.roles}
              error={changing.fieldError('Roles')}
              onChange={(chosen) => {
                changing.clearField('Roles');
                setEditing({ ...editing, roles: chosen });
              }}
            />
          </div>
          <button type="button" onClick={saveRoles} disabled={changing.busy}>
            Save roles
          </button>
          <button type="button" onClick={() => stopEditing(editing.member)}>
            Cancel
          </button>
        </Section>
      )}
      <div tabIndex={-1} id={ids.members} className="action-result">
        {!editing && <ErrorMessage error={changing.message} />}
        <Status text={memberStatus} id={`${ids.members}-status`} />
      </div>
      {list.loading && !list.data && <Loading />}
      {list.data && (
        <PagedTable
          caption="Members"
          total={list.data.TotalCount}
          headers={['Username', 'Name', 'Roles', ...(editable ? ['Actions'] : [])]}
          skip={skip}
          take={TAKE}
          onPage={setSkip}
          wrap={scrolling('Members, scrollable')}
        >
          {list.data.Results.map((member) => (
            <tr key={member.Id} data-member={member.Id}>
              <td className="wrap">
                {member.Username}
                {member.Email && member.Email !== member.Username && (
                  <span className="muted"> ({member.Email})</span>
                )}
              </td>
              <td>{member.Name}</td>
              <td>{roleNames(member.Roles)}</td>
              {editable && (
                <td>
                  <button
                    type="button"
                    data-change-roles={member.Id}
                    onClick={() => startEditing(member)}
                  >
                    Change roles<span className="visually-hidden"> of {member.Username}</span>
                  </button>
                  <button type="button" className="danger" onClick={() => remove(member)}>
                    Remove<span className="visually-hidden"> {member.Username}</span>
                  </button>
                </td>
              )}
            </tr>
          ))}
        </PagedTable>
      )}
    </div>
  );
}
