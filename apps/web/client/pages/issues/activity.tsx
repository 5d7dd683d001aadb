import { useState } from 'preact/hooks';
import { api, ApiError } from '../../api';
import { ErrorNote, formatDate } from '../../components';
import type { Activity } from './types';

const minutes = (value: number) => (value % 1440 === 0 ? `${value / 1440} day${value === 1440 ? '' : 's'}` : value % 60 === 0 ? `${value / 60} hours` : `${value} minutes`);

/** What an entry of the feed says happened, Sentry's wording. */
export function describeActivity(item: Activity): string {
  const data = item.data ?? {};
  switch (item.type) {
    case 'first_seen':
      return 'First seen';
    case 'set_resolved':
      return 'marked this issue as resolved';
    case 'set_resolved_in_release':
      return data.version ? `marked this issue as resolved in ${data.version}` : 'marked this issue as resolved in the upcoming release';
    case 'set_unresolved':
      return 'marked this issue as unresolved';
    case 'set_regression':
      return 'marked this issue as a regression';
    case 'set_escalating':
      return 'flagged this issue as escalating';
    case 'set_ignored':
      if (data.ignoreDuration) return `ignored this issue for ${minutes(Number(data.ignoreDuration))}`;
      if (data.ignoreCount) return `ignored this issue until it happens ${data.ignoreCount} more time${data.ignoreCount === 1 ? '' : 's'}`;
      if (data.ignoreUserCount) return `ignored this issue until it affects ${data.ignoreUserCount} more user${data.ignoreUserCount === 1 ? '' : 's'}`;
      if (data.ignoreUntil) return `ignored this issue until ${formatDate(data.ignoreUntil)}`;
      return 'ignored this issue forever';
    case 'assigned':
      return `assigned this issue to ${data.assigneeType === 'team' ? '#' : ''}${data.assigneeName ?? data.assigneeEmail ?? data.assignee}`;
    case 'unassigned':
      return 'unassigned this issue';
    default:
      return item.type.replace(/_/g, ' ');
  }
}

function CommentForm(props: { initial?: string; label: string; submitLabel: string; onSubmit: (text: string) => Promise<void>; onCancel?: () => void }) {
  const [text, setText] = useState(props.initial ?? '');
  const [error, setError] = useState<unknown>();
  const [pending, setPending] = useState(false);
  const [id] = useState(() => `comment-${Math.random().toString(36).slice(2)}`);
  const fieldError = error instanceof ApiError ? error.field('text') : undefined;
  return (
    <form
      class="comment-form"
      noValidate
      onSubmit={async (event) => {
        event.preventDefault();
        setError(undefined);
        setPending(true);
        try {
          await props.onSubmit(text);
          if (!props.initial) setText('');
        } catch (failure) {
          setError(failure);
        } finally {
          setPending(false);
        }
      }}
    >
      <label for={id} class="visually-hidden">
        {props.label}
      </label>
      <textarea
        id={id}
        rows={3}
        placeholder="Add details or updates to this issue (Ctrl+Enter to send)"
        value={text}
        aria-invalid={fieldError ? 'true' : undefined}
        aria-describedby={fieldError ? `${id}-error` : undefined}
        onInput={(event) => setText((event.currentTarget as HTMLTextAreaElement).value)}
        onKeyDown={(event) => {
          if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) (event.currentTarget as HTMLTextAreaElement).form?.requestSubmit();
        }}
      />
      {fieldError ? (
        <p class="field-error" id={`${id}-error`} role="alert">
          {fieldError}
        </p>
      ) : (
        <ErrorNote error={error} />
      )}
      <div class="comment-buttons">
        {props.onCancel && (
          <button type="button" onClick={props.onCancel}>
            Cancel
          </button>
        )}
        <button type="submit" class="primary" disabled={pending || !text.trim()}>
          {props.submitLabel}
        </button>
      </div>
    </form>
  );
}

/**
 * The activity, newest first, with the comment box on top. Comments of the signed-in user
 * can be edited and deleted (the API refuses anyone else's).
 */
export function ActivityFeed(props: { activity: Activity[]; base: string; userId: string; onChange: () => void }) {
  const [editing, setEditing] = useState<string | undefined>();
  const [error, setError] = useState<unknown>();
  const comments = `${props.base}comments/`;
  return (
    <div class="activity">
      <CommentForm
        label="Comment"
        submitLabel="Comment"
        onSubmit={async (text) => {
          await api('POST', comments, { text }, ['text']);
          props.onChange();
        }}
      />
      <ErrorNote error={error} />
      <ol class="timeline" aria-label="Activity">
        {props.activity.map((item) => {
          const who = item.user?.name ?? (item.type === 'first_seen' || item.type === 'set_regression' || item.type === 'set_escalating' ? 'Faultline' : 'Someone');
          const own = item.type === 'note' && item.user?.id === props.userId;
          return (
            <li key={item.id} class={`timeline-item activity-${item.type}`}>
              <span class="avatar" aria-hidden="true">
                {who.slice(0, 1).toUpperCase()}
              </span>
              <div class="timeline-body">
                {item.type === 'note' ? (
                  <>
                    <p class="timeline-head">
                      <strong>{who}</strong> <span class="muted small">commented · {formatDate(item.dateCreated)}</span>
                    </p>
                    {editing === item.id ? (
                      <CommentForm
                        initial={item.data.text}
                        label="Edit comment"
                        submitLabel="Save"
                        onCancel={() => setEditing(undefined)}
                        onSubmit={async (text) => {
                          await api('PUT', `${comments}${item.id}/`, { text }, ['text']);
                          setEditing(undefined);
                          props.onChange();
                        }}
                      />
                    ) : (
                      <div class="note">{item.data.text}</div>
                    )}
                    {own && editing !== item.id && (
                      <div class="note-actions">
                        <button type="button" class="link-button" onClick={() => setEditing(item.id)} aria-label="Edit comment">
                          Edit
                        </button>
                        <button
                          type="button"
                          class="link-button danger"
                          aria-label="Delete comment"
                          onClick={async () => {
                            if (!confirm('Delete this comment?')) return;
                            setError(undefined);
                            try {
                              await api('DELETE', `${comments}${item.id}/`);
                              props.onChange();
                            } catch (failure) {
                              setError(failure);
                            }
                          }}
                        >
                          Delete
                        </button>
                      </div>
                    )}
                  </>
                ) : (
                  <p class="timeline-head">
                    {item.type !== 'first_seen' && <strong>{who} </strong>}
                    {describeActivity(item)} <span class="muted small">· {formatDate(item.dateCreated)}</span>
                  </p>
                )}
              </div>
            </li>
          );
        })}
      </ol>
    </div>
  );
}
