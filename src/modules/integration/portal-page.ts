// The developer portal of an integration endpoint: what the service is, its live status, how
// to call the gateway, and the tenant's API reference (from the OpenAPI document).
import { createHash } from 'node:crypto';
import { SERVICE_TIERS } from './endpoint-schemas.ts';

export interface PortalOperation {
  method: string;
  path: string;
  summary: string;
  tag: string;
}

export interface PortalModel {
  serviceName: string;
  serviceTier: number;
  status: number;
  keyActive: boolean;
  gatewayUrl: string;
  tokenUrl: string;
  operations: PortalOperation[];
  rateLimit: number;
}

const escape = (text: string) =>
  text
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replaceAll('"', '&quot;')
    .replaceAll("'", '&#39;');

export const STATUS_TEXT: Record<number, string> = {
  1: 'Creation in progress',
  2: 'Live',
  3: 'Failed',
};

// The page's only style and script, inline; the policy below allows exactly these two by hash
// (of the element's whole text, so the constants hold it all, newlines included).
const PORTAL_STYLE = `
  body { font: 15px/1.5 system-ui, sans-serif; margin: 0 auto; max-width: 960px; padding: 1.5rem; color: #1d2430; }
  h1 { margin-bottom: 0; } .muted { color: #5b6575; }
  .status { display: inline-block; padding: .1rem .6rem; border-radius: 1rem; background: #eef; font-weight: 600; }
  .status[data-status="2"] { background: #dcf5e3; } .status[data-status="3"] { background: #fbe0e0; }
  table { border-collapse: collapse; width: 100%; margin-bottom: 1rem; }
  td { border-top: 1px solid #e3e6ea; padding: .3rem .5rem; vertical-align: top; }
  td.method { font-weight: 600; width: 5rem; } pre { background: #f5f7f9; padding: 1rem; overflow-x: auto; }
`;
const PORTAL_SCRIPT = `
  const statusText = ${JSON.stringify(STATUS_TEXT)};
  async function refresh() {
    try {
      const response = await fetch('status', { cache: 'no-store' });
      if (!response.ok) return;
      const body = await response.json();
      const status = document.getElementById('status');
      status.textContent = statusText[body.Status] || 'Unknown';
      status.dataset.status = String(body.Status);
      document.getElementById('key').textContent = body.SubscriptionKeyActive ? 'active' : 'not issued yet';
    } catch {}
  }
  setInterval(refresh, 2000);
`;
const sha256 = (text: string) => `'sha256-${createHash('sha256').update(text).digest('base64')}'`;
/** Content-Security-Policy of the portal page: its own inline style and script, and fetches to itself. */
export const PORTAL_CSP = [
  "default-src 'none'",
  `style-src ${sha256(PORTAL_STYLE)}`,
  `script-src ${sha256(PORTAL_SCRIPT)}`,
  "connect-src 'self'",
  "frame-ancestors 'none'",
  "base-uri 'none'",
  "form-action 'none'",
].join('; ');

/** Operations of the tenant API (management, private and public routes) from an OpenAPI document. */
export function operationsOf(document: {
  paths?: Record<string, Record<string, { summary?: string; tags?: string[] }>>;
}): PortalOperation[] {
  const operations: PortalOperation[] = [];
  for (const [path, methods] of Object.entries(document.paths ?? {})) {
    if (!/^\/(management|private|catalog|company|analytics)\b/.test(path)) continue;
    for (const [method, operation] of Object.entries(methods)) {
      if (!['get', 'post', 'put', 'patch', 'delete'].includes(method)) continue;
      operations.push({
        method: method.toUpperCase(),
        path,
        summary: operation.summary ?? '',
        tag: operation.tags?.[0] ?? 'Other',
      });
    }
  }
  return operations.sort(
    (a, b) =>
      a.tag.localeCompare(b.tag) ||
      a.path.localeCompare(b.path) ||
      a.method.localeCompare(b.method),
  );
}

export function renderPortal(model: PortalModel): string {
  const tags = [...new Set(model.operations.map((o) => o.tag))];
  const reference = tags
    .map((tag) => {
      const rows = model.operations
        .filter((o) => o.tag === tag)
        .map(
          (o) =>
            `<tr class="operation"><td class="method">${o.method}</td><td><code>${escape(o.path)}</code></td><td>${escape(o.summary)}</td></tr>`,
        )
        .join('');
      return `<h3>${escape(tag)}</h3><table><tbody>${rows}</tbody></table>`;
    })
    .join('');
  const example = `curl -H "X-Subscription-Key: $SUBSCRIPTION_KEY" -H "Authorization: Bearer $TOKEN" \\\n  -H "Accept: application/vnd.xomni.api-v4-0" ${model.gatewayUrl}/private/catalog/items?take=10`;
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escape(model.serviceName)} · Integration portal</title>
<style>${PORTAL_STYLE}</style>
</head>
<body>
<h1>${escape(model.serviceName)}</h1>
<p class="muted">Integration endpoint · ${escape(SERVICE_TIERS[model.serviceTier] ?? 'Unknown')} tier · ${model.rateLimit} requests per second</p>
<p>Status: <span id="status" class="status" data-status="${model.status}">${escape(STATUS_TEXT[model.status] ?? 'Unknown')}</span>
   · Subscription key: <span id="key">${model.keyActive ? 'active' : 'not issued yet'}</span></p>
<h2>Calling the gateway</h2>
<ol>
  <li>Get a token of the tenant: <code>POST ${escape(model.tokenUrl)}</code> with <code>grant_type=client_credentials</code> and your app's credentials.</li>
  <li>Get the subscription key from <code>GET /management/integration/endpoint/subscriptionkey</code>.</li>
  <li>Call the API through the gateway with both:</li>
</ol>
<pre>${escape(example)}</pre>
<p class="muted">Past the rate limit the gateway answers 429 with Retry-After; every answer carries RateLimit-Limit, RateLimit-Remaining and RateLimit-Reset.</p>
<h2>API reference</h2>
<p class="muted">${model.operations.length} operations</p>
${reference}
<script>${PORTAL_SCRIPT}</script>
</body>
</html>`;
}
