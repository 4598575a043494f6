// Invite a member: an e-mail address, an optional name and the roles. The person chooses their
// own username and password through the invitation's link; the owner is shown that link once
// (InvitationLinkNotice), and told when the server sends no e-mail.
import { useQueryClient } from '@tanstack/react-query';
import * as v from 'valibot';
import { call, client } from '../../api.ts';
import { Section } from '../../components.tsx';
import { ApiFormFrame, CheckboxGroup, SubmitButton, TextField } from '../../forms/fields.tsx';
import { useApiForm } from '../../forms/use-api-form.ts';
import type { Role } from '../../types.ts';
import { memberKeys, type SentInvitation } from './members-api.ts';

const LABELS = { Email: 'E-mail address', Name: 'Name', Roles: 'Roles' };

const InviteSchema = v.object({
  Email: v.pipe(v.string(), v.trim()),
  Name: v.pipe(
    v.string(),
    v.trim(),
    v.transform((name) => name || null),
  ),
  Roles: v.pipe(
    v.array(v.string()),
    v.transform((ids) => ids.map((Id) => ({ Id: Id as Role['Id'] }))),
  ),
});

export function MemberInvite(props: { roles: Role[]; onSent: (sent: SentInvitation) => void }) {
  const queries = useQueryClient();
  const invite = useApiForm({
    schema: InviteSchema,
    defaultValues: { Email: '', Name: '', Roles: [] },
    labels: LABELS,
  });
  const send = invite.submitWith(async (body) => {
    const sent = await call(client.POST('/management/security/members/invitations', { body }));
    invite.form.reset();
    await queries.invalidateQueries({ queryKey: memberKeys.invitations });
    props.onSent(sent);
  });
  return (
    <Section title="Invite a member">
      <p className="muted">
        We e-mail the person a link; they choose their own username and password, then sign in. The
        link works once, for 7 days, and you can copy it to give it to them yourself.
      </p>
      <ApiFormFrame api={invite} onSubmit={send}>
        <div className="row">
          <TextField name="Email" label="E-mail address" type="email" required />
          <TextField name="Name" label="Name (optional)" />
        </div>
        <CheckboxGroup
          name="Roles"
          legend="Roles"
          options={props.roles.map((r) => ({ value: r.Id, label: r.Description }))}
        />
        <SubmitButton>Send invitation</SubmitButton>
      </ApiFormFrame>
    </Section>
  );
}
