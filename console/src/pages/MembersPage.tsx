// Members of the tenant's back office and their roles: add one, change roles, remove one.
import { useState, type FormEvent } from 'react';
import { call, client } from '../api.ts';
import {
  ErrorMessage,
  Field,
  Loading,
  PageTitle,
  PagedTable,
  Section,
  useAction,
  useLoad,
} from '../components.tsx';
import { useAccess } from '../session.tsx';
import type { Member, Role } from '../types.ts';

const TAKE = 50;

function RoleChecks(props: {
  roles: Role[];
  chosen: Set<string>;
  onChange: (chosen: Set<string>) => void;
  legend: string;
}) {
  return (
    <fieldset className="checks">
      <legend>{props.legend}</legend>
      {props.roles.map((role) => (
        <label key={role.Id}>
          <input
            type="checkbox"
            checked={props.chosen.has(role.Id)}
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
    </fieldset>
  );
}

export default function MembersPage() {
  const editable = useAccess().can('security', 'write');
  const [skip, setSkip] = useState(0);
  const list = useLoad(
    () =>
      call(client.GET('/management/security/members', { params: { query: { skip, take: TAKE } } })),
    [skip],
  );
  const roles = useLoad(
    async () => (await call(client.GET('/management/security/roles'))).Results,
    [],
  );
  const action = useAction();
  const [draft, setDraft] = useState({ Username: '', Name: '', Password: '' });
  const [draftRoles, setDraftRoles] = useState(new Set<string>());
  const [editing, setEditing] = useState<{ member: Member; roles: Set<string> }>();

  const create = (event: FormEvent) => {
    event.preventDefault();
    void action.run(async () => {
      await call(
        client.POST('/management/security/members', {
          body: {
            Username: draft.Username.trim(),
            Name: draft.Name.trim(),
            Password: draft.Password,
            Roles: [...draftRoles].map((Id) => ({ Id })),
          },
        }),
      );
      setDraft({ Username: '', Name: '', Password: '' });
      setDraftRoles(new Set());
      list.reload();
    });
  };
  const saveRoles = () =>
    void action.run(async () => {
      if (!editing) return;
      const { member } = editing;
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
      list.reload();
    });
  const remove = (member: Member) =>
    void action.run(async () => {
      if (!confirm(`Remove the member ${member.Username}?`)) return;
      await call(
        client.DELETE('/management/security/members/{id}', { params: { path: { id: member.Id } } }),
      );
      list.reload();
    });

  return (
    <>
      <PageTitle>Members</PageTitle>
      <ErrorMessage error={list.error ?? roles.error ?? action.error} />
      {editable && roles.data && (
        <Section title="New member">
          <form onSubmit={create}>
            <div className="row">
              <Field
                label="Username"
                required
                value={draft.Username}
                onChange={(Username) => setDraft({ ...draft, Username })}
              />
              <Field
                label="Full name"
                required
                value={draft.Name}
                onChange={(Name) => setDraft({ ...draft, Name })}
              />
              <Field
                label="Password"
                type="password"
                required
                value={draft.Password}
                onChange={(Password) => setDraft({ ...draft, Password })}
              />
            </div>
            <RoleChecks
              legend="Roles"
              roles={roles.data}
              chosen={draftRoles}
              onChange={setDraftRoles}
            />
            <button type="submit" disabled={action.busy}>
              Add member
            </button>
          </form>
        </Section>
      )}
      {editing && roles.data && (
        <Section title={`Roles of ${editing.member.Username}`}>
          <RoleChecks
            legend={`Roles of ${editing.member.Username}`}
            roles={roles.data}
            chosen={editing.roles}
            onChange={(chosen) => setEditing({ ...editing, roles: chosen })}
          />
          <button type="button" onClick={saveRoles} disabled={action.busy}>
            Save roles
          </button>
          <button type="button" onClick={() => setEditing(undefined)}>
            Cancel
          </button>
        </Section>
      )}
      {list.loading && !list.data && <Loading />}
      {list.data && (
        <PagedTable
          caption="Members"
          total={list.data.TotalCount}
          headers={['Username', 'Name', 'Roles', ...(editable ? ['Actions'] : [])]}
          skip={skip}
          take={TAKE}
          onPage={setSkip}
        >
          {list.data.Results.map((member) => (
            <tr key={member.Id}>
              <td data-label="Username">{member.Username}</td>
              <td data-label="Name">{member.Name}</td>
              <td data-label="Roles">{member.Roles.map((r) => r.Description).join(', ')}</td>
              {editable && (
                <td>
                  <button
                    type="button"
                    onClick={() =>
                      setEditing({ member, roles: new Set(member.Roles.map((r) => r.Id)) })
                    }
                  >
                    Change roles of {member.Username}
                  </button>
                  <button type="button" onClick={() => remove(member)}>
                    Remove {member.Username}
                  </button>
                </td>
              )}
            </tr>
          ))}
        </PagedTable>
      )}
    </>
  );
}
