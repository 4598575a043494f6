// The Activity page's filters live in its address (/console/activity?type=item&actor=member:7…),
// so Back, a reload and a bookmark show the same list. Dates are days in the browser's time
// zone: "from" is the start of its day, "to" the end of its day.
import type { ActivityFilters } from './history-api.ts';

export interface FilterForm {
  type: string;
  id: string;
  actorType: string;
  actorId: string;
  action: string;
  from: string;
  to: string;
}

const FIELDS: [keyof FilterForm, string][] = [
  ['type', 'type'],
  ['id', 'id'],
  ['actorType', 'actorType'],
  ['actorId', 'actorId'],
  ['action', 'action'],
  ['from', 'from'],
  ['to', 'to'],
];

const DAY = /^\d{4}-\d{2}-\d{2}$/;

export function readFilterForm(search: URLSearchParams): FilterForm {
  const form = Object.fromEntries(
    FIELDS.map(([field, param]) => [field, search.get(param)?.trim() ?? '']),
  ) as unknown as FilterForm;
  if (!DAY.test(form.from)) form.from = '';
  if (!DAY.test(form.to)) form.to = '';
  // An actor type or action the API does not know is no filter (an edited address).
  if (!actorTypeOf(form.actorType)) form.actorType = '';
  if (!actionOf(form.action)) form.action = '';
  return form;
}

/** The page's path with the filters set ('activity' alone for none). */
export function activityPath(form: FilterForm): string {
  const search = new URLSearchParams();
  for (const [field, param] of FIELDS) {
    const value = form[field].trim();
    if (value) search.set(param, value);
  }
  const text = search.toString();
  return text ? `activity?${text}` : 'activity';
}

/** The start of a local day as the API's date-time; `days` later for the end of a range. */
function dayStart(day: string, days = 0): string {
  const [year, month, date] = day.split('-').map(Number);
  return new Date(year!, month! - 1, date! + days).toISOString();
}

/** The query of GET /management/history for the filters. */
export function queryOf(form: FilterForm): ActivityFilters {
  const query: ActivityFilters = {};
  if (form.type) query.ResourceType = form.type;
  if (form.id) query.ResourceId = form.id;
  const actorType = actorTypeOf(form.actorType);
  if (actorType) query.ActorType = actorType;
  if (form.actorId) query.ActorId = form.actorId;
  const action = actionOf(form.action);
  if (action) query.Action = action;
  if (form.from) query.From = dayStart(form.from);
  // The whole of the last day: up to the next day's start.
  if (form.to) query.To = new Date(Date.parse(dayStart(form.to, 1)) - 1).toISOString();
  return query;
}

export const EMPTY_FORM: FilterForm = {
  type: '',
  id: '',
  actorType: '',
  actorId: '',
  action: '',
  from: '',
  to: '',
};

/** The kinds of resource the history records, as a retailer names them. */
export const RESOURCE_TYPES: { value: string; label: string }[] = [
  { value: 'item', label: 'Item' },
  { value: 'brand', label: 'Brand' },
  { value: 'category', label: 'Category' },
  { value: 'tag', label: 'Tag' },
  { value: 'attribute_type', label: 'Attribute type' },
  { value: 'price_type', label: 'Price type' },
  { value: 'asset', label: 'Asset' },
  { value: 'store', label: 'Store' },
  { value: 'physical_device', label: 'Device' },
  { value: 'logical_device', label: 'Logical device' },
  { value: 'app', label: 'App' },
  { value: 'integration_endpoint', label: 'Integration endpoint' },
  { value: 'webhook_subscription', label: 'Webhook subscription' },
  { value: 'member', label: 'Member' },
  { value: 'invitation', label: 'Invitation' },
];

const actorTypeOf = (value: string) => ACTOR_TYPES.find((type) => type.value === value)?.value;
const actionOf = (value: string) => ACTIONS.find((action) => action.value === value)?.value;

export const ACTOR_TYPES: { value: NonNullable<ActivityFilters['ActorType']>; label: string }[] = [
  { value: 'Member', label: 'Member (console)' },
  { value: 'App', label: 'App' },
  { value: 'Device', label: 'Device' },
  { value: 'Job', label: 'Job (import, export…)' },
  { value: 'System', label: 'System' },
];

export const ACTIONS: { value: NonNullable<ActivityFilters['Action']>; label: string }[] = [
  { value: 'created', label: 'Created' },
  { value: 'updated', label: 'Changed' },
  { value: 'deleted', label: 'Deleted' },
  { value: 'restored', label: 'Restored' },
  { value: 'status_changed', label: 'Status changed' },
];

/** A resource type's name: "physical_device" → "Device"; an unknown one in words. */
export function resourceTypeName(type: string): string {
  const known = RESOURCE_TYPES.find((t) => t.value === type)?.label;
  if (known) return known;
  const words = type.replace(/_/g, ' ');
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** The console page of a resource, when it has one: its own page, else its list's. */
export function resourcePagePath(type: string, id: string, action: string): string | undefined {
  const own: Record<string, string> = { item: 'items', brand: 'brands', category: 'categories' };
  const list = own[type];
  // A deleted resource's page is its history (the resource itself is gone).
  if (list) return action === 'deleted' ? `${list}/${id}/history` : `${list}/${id}`;
  const lists: Record<string, string> = {
    tag: 'tags',
    attribute_type: 'attributes',
    price_type: 'pricetypes',
    store: 'stores',
    physical_device: 'stores',
    logical_device: 'stores',
    app: 'apps',
    integration_endpoint: 'endpoint',
    member: 'members',
    invitation: 'members',
  };
  return lists[type];
}
