// Change a member's roles: the roles as checkboxes, saved with one PUT of the member.
import { useQueryClient } from '@tanstack/react-query';
import * as v from 'valibot';
import { call, client } from '../../api.ts';
import { Section } from '../../components.tsx';
import { ApiFormFrame, CheckboxGroup, SubmitButton } from '../../forms/fields.tsx';
import { useApiForm } from '../../forms/use-api-form.ts';
import type { Member, Role } from '../../types.ts';
import { memberKeys } from './members-api.ts';

const RolesSchema = v.object({
  Roles: v.pipe(
    v.array(v.string()),
    v.transform((ids) => ids.map((Id) => ({ Id: Id as Role['Id'] }))),
  ),
});

export function MemberRolesEdit(props: {
  member: Member;
  roles: Role[];
  onSaved: (text: string) => void;
  onCancel: () => void;
}) {
  const { member, roles } = props;
  const queries = useQueryClient();
  const editing = useApiForm({
    schema: RolesSchema,
    defaultValues: { Roles: member.Roles.map((r) => r.Id) },
    labels: { Roles: 'Roles' },
  });
  const save = editing.submitWith(async ({ Roles }) => {
    await call(
      client.PUT('/management/security/members/{id}', {
        params: { path: { id: member.Id } },
        body: { Username: member.Username, Name: member.Name, Roles },
      }),
    );
    await queries.invalidateQueries({ queryKey: memberKeys.all });
    props.onSaved(`Roles of ${member.Username} saved.`);
  });
  return (
    <Section title={`Roles of ${member.Username}`}>
      <ApiFormFrame api={editing} onSubmit={save}>
        <CheckboxGroup
          name="Roles"
          legend={`Roles of ${member.Username}`}
          options={roles.map((r) => ({ value: r.Id, label: r.Description }))}
        />
        <SubmitButton>Save roles</SubmitButton>
        <button type="button" onClick={props.onCancel}>
          Cancel
        </button>
      </ApiFormFrame>
    </Section>
  );
}
