import { useState } from 'preact/hooks';
import { api, ApiError } from '../../api';
import { ErrorNote, formatDate } from '../../components';
import { describeActivity } from './activity-text';
import type { Activity } from './types';
import { renderMarkdown } from './markdown';

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
          const who =
            item.user?.name ?? (item.type === 'first_seen' || item.type === 'set_regression' || item.type === 'set_escalating' ? 'Faultline' : 'Someone');
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
                      <div class="note markdown" dangerouslySetInnerHTML={{ __html: renderMarkdown(String(item.data.text ?? '')) }} />
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
