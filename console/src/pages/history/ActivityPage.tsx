// The tenant's activity: every recorded change, newest first, narrowed by the kind of resource,
// its id, who made the change (by type and id; choosing an entry's actor narrows to them), what
// was done and between which days. The filters are the page's address (activity-filters.ts);
// each entry links to its resource's page when the console has one.
import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { useMemo, useState, type FormEvent } from 'react';
import { catalogChoices } from '../../catalog.ts';
import { ErrorMessage, Field, Loading, PageTitle, Section, Select } from '../../components.tsx';
import { navigate, useRoute } from '../../router.ts';
import { useAccess } from '../../session.tsx';
import { PageLink } from '../PageLink.tsx';
import {
  ACTIONS,
  ACTOR_TYPES,
  activityPath,
  EMPTY_FORM,
  queryOf,
  readFilterForm,
  RESOURCE_TYPES,
  resourcePagePath,
  resourceTypeName,
  type FilterForm,
} from './activity-filters.ts';
import { HistoryEntries } from './HistoryEntries.tsx';
import { historyKeys, tenantHistory, type HistoryEntry } from './history-api.ts';
import { namesOfChoices, type HistoryActor } from './history-words.ts';
import './history.css';

export default function ActivityPage() {
  const { search } = useRoute();
  const searchText = search.toString();
  const applied = useMemo(() => readFilterForm(new URLSearchParams(searchText)), [searchText]);
  const [form, setForm] = useState<FilterForm>(applied);
  // The address changed (Back, a chosen actor): the form shows what the list shows.
  const [shownSearch, setShownSearch] = useState(searchText);
  if (shownSearch !== searchText) {
    setShownSearch(searchText);
    setForm(applied);
  }
  const filters = useMemo(() => queryOf(applied), [applied]);
  const history = useInfiniteQuery({
    queryKey: historyKeys.tenant(filters),
    queryFn: ({ pageParam }) => tenantHistory(filters, pageParam),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => last.Continuation ?? undefined,
  });
  // Price types, brands and tags by name, for a member who may read the catalog.
  const readsCatalog = useAccess().can('catalog', 'read');
  const choices = useQuery({
    queryKey: ['catalog-choices'],
    queryFn: catalogChoices,
    enabled: readsCatalog,
  });
  const names = useMemo(() => (choices.data ? namesOfChoices(choices.data) : {}), [choices.data]);
  const entries = history.data?.pages.flatMap((page) => page.Results) ?? [];

  const set = (field: keyof FilterForm) => (value: string) =>
    setForm((current) => ({ ...current, [field]: value }));
  const apply = (event: FormEvent) => {
    event.preventDefault();
    navigate(activityPath(form));
  };
  const onlyActor = (actor: HistoryActor) =>
    navigate(activityPath({ ...applied, actorType: actor.Type, actorId: actor.Id ?? '' }));

  const lead = (entry: HistoryEntry) => {
    const name = `${resourceTypeName(entry.ResourceType)} ${entry.ResourceId}`;
    const to = resourcePagePath(entry.ResourceType, entry.ResourceId, entry.Action);
    return (
      <span className="history-resource">{to ? <PageLink to={to}>{name}</PageLink> : name}: </span>
    );
  };

  return (
    <div className="activity-page">
      <PageTitle>Activity</PageTitle>
      <Section title="Filters">
        <form className="activity-filters" aria-label="Activity filters" onSubmit={apply}>
          <div className="grid">
            <Select
              label="Resource type"
              value={form.type}
              onChange={set('type')}
              options={RESOURCE_TYPES}
              empty="Any"
            />
            <Field label="Resource id" value={form.id} onChange={set('id')} />
            <Select
              label="Actor type"
              value={form.actorType}
              onChange={set('actorType')}
              options={ACTOR_TYPES}
              empty="Anyone"
            />
            <Field label="Actor id" value={form.actorId} onChange={set('actorId')} />
            <Select
              label="Action"
              value={form.action}
              onChange={set('action')}
              options={ACTIONS}
              empty="Any"
            />
            <Field label="From (day)" type="date" value={form.from} onChange={set('from')} />
            <Field label="To (day)" type="date" value={form.to} onChange={set('to')} />
          </div>
          <button type="submit">Show changes</button>
          <button
            type="button"
            onClick={() => {
              setForm(EMPTY_FORM);
              navigate('activity');
            }}
          >
            Clear filters
          </button>
        </form>
      </Section>
      <Section title="Changes, newest first">
        <ErrorMessage error={history.error} />
        {history.isPending && <Loading />}
        {history.data && (
          <HistoryEntries
            label="Changes, newest first"
            entries={entries}
            names={names}
            hasMore={history.hasNextPage}
            loadingMore={history.isFetchingNextPage}
            loadMore={() => history.fetchNextPage()}
            lead={lead}
            actor={(actor, words) => (
              <button
                type="button"
                className="link"
                aria-label={`${words}: show only their changes`}
                title="Show only their changes"
                onClick={() => onlyActor(actor)}
              >
                {words}
              </button>
            )}
          />
        )}
      </Section>
    </div>
  );
}
