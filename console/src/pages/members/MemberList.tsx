// The tenant's members, a page at a time, with their roles; an owner changes roles and removes
// members from here.
import type { UseQueryResult } from '@tanstack/react-query';
import { Loading, PagedTable } from '../../components.tsx';
import type { Member } from '../../types.ts';
import { scrolling } from '../scrolling-table.tsx';
import { PAGE_SIZE, roleNames, type loadMembers } from './members-api.ts';

export function MemberList(props: {
  list: UseQueryResult<Awaited<ReturnType<typeof loadMembers>>>;
  skip: number;
  onPage: (skip: number) => void;
  editable: boolean;
  onChangeRoles: (member: Member) => void;
  onRemove: (member: Member) => void;
}) {
  const { list, skip, onPage, editable } = props;
  if (list.isPending) return <Loading />;
  if (!list.data) return null;
  return (
    <PagedTable
      caption="Members"
      total={list.data.TotalCount}
      headers={['Username', 'Name', 'Roles', ...(editable ? ['Actions'] : [])]}
      skip={skip}
      take={PAGE_SIZE}
      onPage={onPage}
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
                onClick={() => props.onChangeRoles(member)}
              >
                Change roles<span className="visually-hidden"> of {member.Username}</span>
              </button>
              <button type="button" className="danger" onClick={() => props.onRemove(member)}>
                Remove<span className="visually-hidden"> {member.Username}</span>
              </button>
            </td>
          )}
        </tr>
      ))}
    </PagedTable>
  );
}
