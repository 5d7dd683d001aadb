import type { InputHTMLAttributes } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';
import { applySuggestion, tokenAt, type Token } from './search';

export interface Suggestion {
  key: string;
  /** Absent for a key suggestion. */
  value?: string;
  description?: string;
}

/** Where the box's suggestions come from: keys at once, values per key as typed. */
export interface SuggestionSource {
  keys: Array<{ key: string; description?: string }>;
  values: (key: string, partial: string) => Promise<string[]>;
}

const MAX_SUGGESTIONS = 12;

/**
 * Sentry's search box: a combobox whose list suggests keys, then values for the key being typed.
 * Arrow keys move through the suggestions, Enter or Tab takes one, Enter without one searches.
 */
export function SearchBox(props: { query: string; onSearch: (query: string) => void; source: SuggestionSource }) {
  const [text, setText] = useState(props.query);
  const [token, setToken] = useState<Token | undefined>();
  const [suggestions, setSuggestions] = useState<Suggestion[]>([]);
  const [active, setActive] = useState(-1);
  const input = useRef<HTMLInputElement>(null);
  const generation = useRef(0);
  useEffect(() => setText(props.query), [props.query]);

  /** Closes the list; suggestions still on their way (a slow answer after a search) are dropped. */
  const close = () => {
    generation.current++;
    setSuggestions([]);
  };

  const suggest = async (value: string, caret: number) => {
    const current = tokenAt(value, caret);
    setToken(current);
    setActive(-1);
    const run = ++generation.current;
    let found: Suggestion[];
    if (current.key === undefined) {
      const prefix = current.partial.toLowerCase();
      found = props.source.keys.filter((item) => item.key.toLowerCase().startsWith(prefix)).map((item) => ({ key: item.key, description: item.description }));
    } else {
      const values = await props.source.values(current.key, current.partial).catch(() => [] as string[]);
      const prefix = current.partial.toLowerCase();
      found = values.filter((item) => item.toLowerCase().includes(prefix)).map((item) => ({ key: current.key!, value: item }));
    }
    if (run === generation.current) setSuggestions(found.slice(0, MAX_SUGGESTIONS));
  };

  const take = (suggestion: Suggestion) => {
    if (!token) return;
    const next = applySuggestion(text, token, suggestion);
    setText(next.query);
    // Written now, caret included, not a frame later: keys typed meanwhile go after the suggestion.
    const box = input.current;
    if (box) {
      box.value = next.query;
      box.focus();
      box.setSelectionRange(next.caret, next.caret);
    }
    void suggest(next.query, next.caret);
  };

  const open = suggestions.length > 0;
  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key === 'ArrowDown' && open) {
      event.preventDefault();
      setActive((active + 1) % suggestions.length);
    } else if (event.key === 'ArrowUp' && open) {
      event.preventDefault();
      setActive((active - 1 + suggestions.length) % suggestions.length);
    } else if ((event.key === 'Enter' || event.key === 'Tab') && open && active >= 0) {
      event.preventDefault();
      take(suggestions[active]);
    } else if (event.key === 'Escape' && open) {
      event.preventDefault();
      close();
    }
  };

  return (
    <form
      class="search-box"
      role="search"
      onSubmit={(event) => {
        event.preventDefault();
        close();
        props.onSearch(text.trim());
      }}
    >
      <label for="issue-search" class="visually-hidden">
        Search issues
      </label>
      <input
        id="issue-search"
        ref={input}
        {...({ type: 'search', role: 'combobox' } as InputHTMLAttributes<HTMLInputElement>)}
        autoComplete="off"
        spellcheck={false}
        aria-autocomplete="list"
        aria-expanded={open}
        aria-controls="issue-search-suggestions"
        aria-activedescendant={open && active >= 0 ? `issue-search-suggestion-${active}` : undefined}
        aria-describedby="issue-search-hint"
        placeholder="Search: is:unresolved level:error environment:production key:value …"
        value={text}
        onInput={(event) => {
          const target = event.currentTarget as HTMLInputElement;
          setText(target.value);
          void suggest(target.value, target.selectionStart ?? target.value.length);
        }}
        onFocus={(event) => {
          const target = event.currentTarget as HTMLInputElement;
          void suggest(target.value, target.selectionStart ?? target.value.length);
        }}
        onBlur={() => setTimeout(close, 150)}
        onKeyDown={onKeyDown}
      />
      <span id="issue-search-hint" class="visually-hidden">
        Sentry's search syntax. Suggestions appear as you type; use the arrow keys and Enter to pick one.
      </span>
      <button type="submit" class="primary">
        Search
      </button>
      <ul id="issue-search-suggestions" role="listbox" aria-label="Suggestions" class="suggestions" hidden={!open}>
        {suggestions.map((suggestion, index) => (
          <li
            key={`${suggestion.key}:${suggestion.value ?? ''}`}
            id={`issue-search-suggestion-${index}`}
            role="option"
            aria-selected={index === active}
            class={index === active ? 'active' : undefined}
            onMouseDown={(event) => {
              event.preventDefault();
              take(suggestion);
            }}
          >
            {suggestion.value === undefined ? (
              <>
                <code>{suggestion.key}:</code> {suggestion.description && <span class="muted small">{suggestion.description}</span>}
              </>
            ) : (
              <>
                <span class="muted">{suggestion.key}:</span>
                <code>{suggestion.value}</code>
              </>
            )}
          </li>
        ))}
      </ul>
    </form>
  );
}
