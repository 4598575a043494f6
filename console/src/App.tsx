// The console's frame: navigation, who is signed in, sign-out, and the current page.
import { lazy, Suspense, useMemo, type ComponentType } from 'react';
import { signOut, type Session } from './auth.ts';
import { Loading } from './components.tsx';
import { navigate, useRoute } from './router.ts';
import { AccessContext, accessOf, type Area } from './session.tsx';
import { DashboardPage } from './pages/DashboardPage.tsx';
import { ItemsPage } from './pages/ItemsPage.tsx';

// Pages other than the first two load on demand, so opening the console fetches less.
const ItemEditorPage = lazy(() => import('./pages/item-editor/ItemEditorPage.tsx'));
const CategoriesPage = lazy(() => import('./pages/CategoriesPage.tsx'));
const CatalogListsPage = lazy(() => import('./pages/CatalogListsPage.tsx'));
const StoresPage = lazy(() => import('./pages/StoresPage.tsx'));
const AppsPage = lazy(() => import('./pages/AppsPage.tsx'));
const EndpointPage = lazy(() => import('./pages/EndpointPage.tsx'));
const MembersPage = lazy(() => import('./pages/MembersPage.tsx'));

interface PageEntry {
  path: string;
  label: string;
  area: Area;
  page: ComponentType<{ path: string }>;
}

const PAGES: PageEntry[] = [
  { path: '', label: 'Dashboard', area: 'analytics', page: DashboardPage },
  { path: 'items', label: 'Items', area: 'catalog', page: ItemsPage },
  { path: 'categories', label: 'Categories', area: 'catalog', page: CategoriesPage },
  { path: 'brands', label: 'Brands', area: 'catalog', page: CatalogListsPage },
  { path: 'tags', label: 'Tags', area: 'catalog', page: CatalogListsPage },
  { path: 'attributes', label: 'Attribute types', area: 'catalog', page: CatalogListsPage },
  { path: 'pricetypes', label: 'Price types', area: 'catalog', page: CatalogListsPage },
  { path: 'stores', label: 'Stores and devices', area: 'company', page: StoresPage },
  { path: 'apps', label: 'Apps', area: 'apps', page: AppsPage },
  { path: 'endpoint', label: 'Integration endpoint', area: 'integration', page: EndpointPage },
  { path: 'members', label: 'Members', area: 'security', page: MembersPage },
];

function pageOf(path: string): { entry: PageEntry; page: ComponentType<{ path: string }> } {
  if (path.startsWith('items/')) {
    return { entry: PAGES[1]!, page: ItemEditorPage };
  }
  const entry = PAGES.find((p) => p.path === path) ?? PAGES[0]!;
  return { entry, page: entry.page };
}

function NothingToShow() {
  return <p>Your roles do not allow any page of the console.</p>;
}

export function App({ session }: { session: Session }) {
  const access = useMemo(() => accessOf(session), [session]);
  const { path } = useRoute();
  const visible = PAGES.filter((p) => access.can(p.area, 'read'));
  // A page the member's roles cannot read (the dashboard for a device manager) gives way to the
  // first one they can.
  let { entry, page: Page } = pageOf(path);
  if (!visible.includes(entry)) {
    entry = visible[0] ?? entry;
    Page = visible[0]?.page ?? NothingToShow;
  }

  const leave = async () => {
    await signOut();
    location.assign('/console/signed-out');
  };

  return (
    <AccessContext.Provider value={access}>
      <a className="skip" href="#content">
        Skip to content
      </a>
      <header className="top">
        <span className="brand">Back office console</span>
        <span className="who">{access.who}</span>
        <button type="button" onClick={() => void leave()}>
          Sign out
        </button>
      </header>
      <div className="layout">
        <nav aria-label="Console pages">
          <ul>
            {visible.map((p) => (
              <li key={p.path}>
                <a
                  href={`/console/${p.path}`}
                  aria-current={entry === p ? 'page' : undefined}
                  onClick={(event) => {
                    if (event.ctrlKey || event.metaKey || event.shiftKey) return;
                    event.preventDefault();
                    navigate(p.path);
                  }}
                >
                  {p.label}
                </a>
              </li>
            ))}
          </ul>
        </nav>
        <main id="content">
          <Suspense fallback={<Loading />}>
            <Page key={path} path={path} />
          </Suspense>
        </main>
      </div>
    </AccessContext.Provider>
  );
}
