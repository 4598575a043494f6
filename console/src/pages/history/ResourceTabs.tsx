// The views of one resource's page, as tabs: "Details" (its page) and "History". Each tab is a
// link to an address of its own (items/5, items/5/history), so a tab can be bookmarked, Back
// returns to the other, and a page with unsaved changes asks before it is left. The tabs show
// only for a member whose roles may read the history; without them the page is its details.
import { PageLink } from '../PageLink.tsx';
import { useAccess } from '../../session.tsx';

export type ResourceView = 'details' | 'history';

/** The view an address shows: "items/5/history" → history. */
export const viewOf = (path: string): ResourceView =>
  path.split('/')[2] === 'history' ? 'history' : 'details';

export function ResourceTabs(props: { base: string; view: ResourceView; label: string }) {
  const { base, view, label } = props;
  if (!useAccess().can('history', 'read')) return null;
  const tabs: { view: ResourceView; text: string; to: string }[] = [
    { view: 'details', text: 'Details', to: base },
    { view: 'history', text: 'History', to: `${base}/history` },
  ];
  return (
    <nav className="tabs" aria-label={label}>
      <ul>
        {tabs.map((tab) => (
          <li key={tab.view}>
            <PageLink to={tab.to} current={tab.view === view}>
              {tab.text}
            </PageLink>
          </li>
        ))}
      </ul>
    </nav>
  );
}
