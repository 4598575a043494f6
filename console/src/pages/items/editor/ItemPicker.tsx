// A combobox that finds items by what is typed (title, name, SKU, model; the item search with
// its typo tolerance) and offers them as options: the ARIA 1.2 combobox pattern with a listbox
// popup. Arrow keys move through the options (aria-activedescendant), Enter or a click chooses,
// Escape closes the list. An option that cannot be chosen stays listed, marked unavailable, with
// the reason.
import { useEffect, useId, useRef, useState, type KeyboardEvent } from 'react';
import { call, client } from '../../../api.ts';
import type { Item } from '../../../types.ts';

const SEARCH_DELAY_MS = 250;
const OPTIONS_SHOWN = 8;

export function ItemPicker(props: {
  label: string;
  /** What choosing does, read with the field. */
  hint: string;
  /** Why an item cannot be chosen, or undefined when it can. */
  unavailable: (item: Item) => string | undefined;
  onPick: (item: Item) => void;
  error?: string;
}) {
  const { label, hint, unavailable, onPick, error } = props;
  const id = useId();
  const listId = `${id}-list`;
  const hintId = `${id}-hint`;
  const errorId = `${id}-error`;
  const [text, setText] = useState('');
  const [open, setOpen] = useState(false);
  const [results, setResults] = useState<Item[]>([]);
  const [active, setActive] = useState(-1);
  const [announcement, setAnnouncement] = useState('');
  const latest = useRef(0);

  useEffect(() => {
    const words = text.trim();
    const request = ++latest.current;
    if (words === '') {
      setResults([]);
      setAnnouncement('');
      return;
    }
    const timer = setTimeout(() => {
      call(
        client.POST('/private/catalog/items', {
          body: { Query: words, Take: OPTIONS_SHOWN, IncludePassiveItems: true },
        }),
      ).then(
        (answer) => {
          if (request !== latest.current) return;
          const found = answer.SearchResult.Items;
          setResults(found);
          setActive(-1);
          setOpen(true);
          setAnnouncement(
            found.length === 0
              ? `No items match “${words}”.`
              : `${found.length} ${found.length === 1 ? 'item' : 'items'} found; use the arrow keys to choose.`,
          );
        },
        () => {
          if (request === latest.current) setAnnouncement('The search failed. Try again.');
        },
      );
    }, SEARCH_DELAY_MS);
    return () => clearTimeout(timer);
  }, [text]);

  const expanded = open && results.length > 0;
  const optionId = (item: Item) => `${id}-option-${item.Id}`;

  const choose = (item: Item) => {
    if (unavailable(item) !== undefined) return;
    onPick(item);
    latest.current++;
    setText('');
    setResults([]);
    setOpen(false);
    setActive(-1);
    setAnnouncement(`Chosen: ${item.Title}.`);
  };

  const move = (step: 1 | -1) => {
    if (results.length === 0) return;
    setOpen(true);
    setActive((current) => {
      if (!expanded) return step === 1 ? 0 : results.length - 1;
      return (current + step + results.length) % results.length;
    });
  };

  const keyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    switch (event.key) {
      case 'ArrowDown':
        event.preventDefault();
        move(1);
        break;
      case 'ArrowUp':
        event.preventDefault();
        move(-1);
        break;
      case 'Enter':
        // The list is open: Enter chooses, it does not submit the form.
        if (!expanded) return;
        event.preventDefault();
        if (active >= 0) choose(results[active]!);
        break;
      case 'Escape':
        if (expanded) {
          event.preventDefault();
          setOpen(false);
          setActive(-1);
        } else if (text !== '') {
          event.preventDefault();
          setText('');
        }
        break;
    }
  };

  const described = [hintId, error ? errorId : ''].filter(Boolean).join(' ');
  return (
    <div className={error ? 'field combobox invalid' : 'field combobox'}>
      <label htmlFor={id}>{label}</label>
      <span id={hintId} className="hint">
        {hint}
      </span>
      <input
        id={id}
        type="text"
        role="combobox"
        autoComplete="off"
        aria-autocomplete="list"
        aria-expanded={expanded}
        aria-controls={listId}
        aria-activedescendant={expanded && active >= 0 ? optionId(results[active]!) : undefined}
        aria-describedby={described}
        aria-invalid={error ? true : undefined}
        value={text}
        onChange={(event) => {
          setText(event.target.value);
          setOpen(true);
        }}
        onKeyDown={keyDown}
        onBlur={() => setOpen(false)}
        onFocus={() => setOpen(true)}
      />
      <ul id={listId} role="listbox" aria-label={`${label}: items found`} hidden={!expanded}>
        {results.map((item, index) => {
          const reason = unavailable(item);
          return (
            <li
              key={item.Id}
              id={optionId(item)}
              role="option"
              aria-selected={index === active}
              aria-disabled={reason !== undefined ? true : undefined}
              // Keeps the focus in the input while the option is clicked.
              onMouseDown={(event) => event.preventDefault()}
              onClick={() => choose(item)}
            >
              {item.Title}
              <span className="hint">
                {[`item ${item.Id}`, item.SKU && `SKU ${item.SKU}`, reason]
                  .filter(Boolean)
                  .join(' · ')}
              </span>
            </li>
          );
        })}
      </ul>
      {error && (
        <p id={errorId} className="field-error">
          {error}
        </p>
      )}
      <p className="visually-hidden" role="status">
        {announcement}
      </p>
    </div>
  );
}
