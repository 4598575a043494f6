// The Items list's table: each item with its thumbnail, title (a link to its editor) and SKU,
// brand, category, status and prices in their currency (cards at phone width, items.css).
import type { Item, SearchAnswer } from '../../types.ts';
import { navigate } from '../../router.ts';
import { formatPrice } from './price-format.ts';

/** An item's prices, each in its price type's currency; a sale price before the struck normal one. */
function Prices({ prices }: { prices: Item['Prices'] }) {
  if (prices.length === 0) return <span className="muted">No price</span>;
  return (
    <ul className="prices">
      {prices.map((p) => (
        <li key={p.PriceTypeId}>
          {p.DiscountPrice !== null && p.DiscountPrice < p.NormalPrice ? (
            <>
              <span className="sale">
                <span className="visually-hidden">Sale price: </span>
                {formatPrice(p.DiscountPrice, p.PriceTypeSymbol)}
              </span>{' '}
              <s className="was">
                <span className="visually-hidden">, normal price: </span>
                {formatPrice(p.NormalPrice, p.PriceTypeSymbol)}
              </s>
            </>
          ) : (
            formatPrice(p.DiscountPrice ?? p.NormalPrice, p.PriceTypeSymbol)
          )}
        </li>
      ))}
    </ul>
  );
}

export function ItemTable(props: {
  result: SearchAnswer['SearchResult'];
  loading: boolean;
  brandNames: Map<number, string>;
  categoryNames: Map<number, string>;
}) {
  const { result, loading, brandNames, categoryNames } = props;
  const thumbnails = new Map((result.DefaultImages ?? []).map((i) => [i.ItemId, i.AssetUrl]));
  const open = (id: number) => navigate(`items/${id}`);
  return (
    <table className="item-list" role="table" aria-labelledby="items-heading" aria-busy={loading}>
      <thead role="rowgroup">
        <tr role="row">
          <th scope="col" role="columnheader">
            <span className="visually-hidden">Image</span>
          </th>
          <th scope="col" role="columnheader">
            Item
          </th>
          <th scope="col" role="columnheader">
            Brand
          </th>
          <th scope="col" role="columnheader">
            Category
          </th>
          <th scope="col" role="columnheader">
            Status
          </th>
          <th scope="col" role="columnheader">
            Price
          </th>
        </tr>
      </thead>
      <tbody role="rowgroup">
        {result.Items.map((item) => {
          const image = thumbnails.get(item.Id);
          const brand = item.BrandId === null ? undefined : brandNames.get(item.BrandId);
          const category =
            item.CategoryId === null ? undefined : categoryNames.get(item.CategoryId);
          return (
            <tr key={item.Id} role="row" data-item={item.Id}>
              <td className="image" role="cell">
                {image ? (
                  <img src={image} alt="" width={48} height={48} loading="lazy" />
                ) : (
                  <span className="no-image" aria-hidden="true" />
                )}
              </td>
              <td className="title" role="cell">
                <a
                  href={`/console/items/${item.Id}`}
                  onClick={(event) => {
                    if (event.ctrlKey || event.metaKey || event.shiftKey) return;
                    event.preventDefault();
                    open(item.Id);
                  }}
                >
                  {item.Title}
                </a>
                {item.SKU && <span className="sku">SKU {item.SKU}</span>}
              </td>
              <td className="brand" role="cell">
                <span className="card-label" aria-hidden="true">
                  Brand:{' '}
                </span>
                {brand ?? <span className="muted">None</span>}
              </td>
              <td className="category" role="cell">
                <span className="card-label" aria-hidden="true">
                  Category:{' '}
                </span>
                {category ?? <span className="muted">None</span>}
              </td>
              <td className="status" role="cell">
                <span className={item.ItemStatusId === 2 ? 'badge passive' : 'badge active'}>
                  {item.ItemStatusId === 2 ? 'Passive' : 'Active'}
                </span>
              </td>
              <td className="price" role="cell">
                <Prices prices={item.Prices} />
              </td>
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}
