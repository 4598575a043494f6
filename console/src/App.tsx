// The console's frame: navigation, who is signed in, sign-out, and the current page. At phone
// width (styles.css, max-width 48rem) the navigation folds behind a "Menu" button.
import { lazy, Suspense, useEffect, useMemo, useRef, useState, type ComponentType } from 'react';
import { signOut, type Session } from './auth.ts';
import { focusLater, Loading } from './components.tsx';
import { navigate, useRoute } from './router.ts';
import { AccessContext, accessOf, type Area } from './session.tsx';
import { DashboardPage } from './pages/dashboard/DashboardPage.tsx';
import { ItemsPage } from './pages/items/ItemsPage.tsx';

// Pages other than the first two load on demand, so opening the console fetches less.
const ItemEditorPage = lazy(() => import('./pages/items/editor/ItemEditorPage.tsx'));
const CategoriesPage = lazy(() => import('./pages/categories/CategoriesPage.tsx'));
const CatalogListsPage = lazy(() => import('./pages/catalog-lists/ListPage.tsx'));
const StoresPage = lazy(() => import('./pages/stores/StoresPage.tsx'));
const AppsPage = lazy(() => import('./pages/apps/AppsPage.tsx'));
const EndpointPage = lazy(() => import('./pages/endpoint/EndpointPage.tsx'));
const MembersPage = lazy(() => import('./pages/members/MembersPage.tsx'));
const ImportPage = lazy(() => import('./pages/bulk/ImportPage.tsx'));
const ExportPage = lazy(() => import('./pages/bulk/ExportPage.tsx'));
const CatalogResourcePage = lazy(() => import('./pages/history/CatalogResourcePage.tsx'));
const ActivityPage = lazy(() => import('./pages/history/ActivityPage.tsx'));

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
  { path: 'import', label: 'Catalog import', area: 'catalog', page: ImportPage },
  { path: 'export', label: 'Catalog export', area: 'catalog', page: ExportPage },
  { path: 'stores', label: 'Stores and devices', area: 'company', page: StoresPage },
  { path: 'apps', label: 'Apps', area: 'apps', page: AppsPage },
  { path: 'endpoint', label: 'Integration endpoint', area: 'integration', page: EndpointPage },
  { path: 'members', label: 'Members', area: 'security', page: MembersPage },
  { path: 'activity', label: 'Activity', area: 'history', page: ActivityPage },
];

/** Pages of one resource (items/5, brands/7/history), under the list they belong to. */
const RESOURCE_PAGES: Record<string, ComponentType<{ path: string }>> = {
  items: ItemEditorPage,
  brands: CatalogResourcePage,
  categories: CatalogResourcePage,
};

function pageOf(path: string): { entry: PageEntry; page: ComponentType<{ path: string }> } {
  const [list = '', resource] = path.split('/');
  const resourcePage = RESOURCE_PAGES[list];
  const listEntry = PAGES.find((p) => p.path === list);
  if (resource !== undefined && resourcePage && listEntry) {
    return { entry: listEntry, page: resourcePage };
  }
  const entry = PAGES.find((p) => p.path === path) ?? PAGES[0]!;
  return { entry, page: entry.page };
}

/** The navigation's id, which the Menu button controls. */
const NAV_ID = 'console-nav';

/** Three bars: the usual picture of a menu (the button's name is its text, "Menu"). */
function MenuIcon() {
  return (
    <svg width="18" height="14" viewBox="0 0 18 14" aria-hidden="true" focusable="false">
      <path d="M1 1h16M1 7h16M1 13h16" stroke="currentColor" strokeWidth="2" />
    </svg>
  );
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

  // The collapsed menu (phone width): a disclosure. Escape closes it and gives the focus back to
  // its button; choosing a page closes it and the new page's heading takes the focus.
  const [menuOpen, setMenuOpen] = useState(false);
  const menuButton = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    if (!menuOpen) return;
    const closeOnEscape = (event: KeyboardEvent) => {
      if (event.key !== 'Escape' || event.defaultPrevented) return;
      setMenuOpen(false);
      menuButton.current?.focus();
    };
    document.addEventListener('keydown', closeOnEscape);
    return () => document.removeEventListener('keydown', closeOnEscape);
  }, [menuOpen]);
  // Whatever changed the page (a link, the back button), the menu folds again.
  const [shownPath, setShownPath] = useState(path);
  if (shownPath !== path) {
    setShownPath(path);
    setMenuOpen(false);
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
        <span className="brand">
          Back office<span className="brand-more"> console</span>
        </span>
        <span className="who">{access.who}</span>
        <button type="button" onClick={() => void leave()}>
          Sign out
        </button>
        <button
          type="button"
          className="menu-toggle"
          ref={menuButton}
          aria-expanded={menuOpen}
          aria-controls={NAV_ID}
          onClick={() => setMenuOpen((open) => !open)}
        >
          <MenuIcon />
          Menu
        </button>
      </header>
      <div className="layout">
        <nav id={NAV_ID} aria-label="Console pages" className={menuOpen ? 'open' : undefined}>
          <ul>
            {visible.map((p) => (
              <li key={p.path}>
                <a
                  href={`/console/${p.path}`}
                  aria-current={entry === p ? 'page' : undefined}
                  onClick={(event) => {
                    if (event.ctrlKey || event.metaKey || event.shiftKey) return;
                    event.preventDefault();
                    setMenuOpen(false);
                    navigate(p.path);
                    // The page's heading takes the focus when it mounts; this also covers the
                    // page chosen again and a lazy page still loading (the link is hidden now).
                    focusLater('#content h1');
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
