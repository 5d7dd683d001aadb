import { api, ApiError, enc } from '../../api';
import { ErrorNote, Section, useLoad } from '../../components';
import { formatBytes } from '../../format-bytes';

interface EventAttachment {
  id: string;
  name: string;
  type: string;
  size: number;
  mimetype: string;
}

/**
 * The shown event's attachments. Whether the member may download them is the server's answer (the
 * organization's attachments role), asked once by reading the first attachment: 403 hides the links.
 */
export function EventAttachments(props: { org: string; project: string; eventId: string }) {
  const base = `/api/0/projects/${enc(props.org)}/${enc(props.project)}/events/${enc(props.eventId)}/attachments/`;
  const loaded = useLoad(async () => {
    const { body: attachments } = await api<EventAttachment[]>('GET', base);
    if (attachments.length === 0) return { attachments, mayDownload: false };
    try {
      await api('GET', `${base}${enc(attachments[0].id)}/`);
      return { attachments, mayDownload: true };
    } catch (error) {
      if (error instanceof ApiError && error.status === 403) return { attachments, mayDownload: false };
      throw error;
    }
  }, [base]);
  if (!loaded.error && !loaded.data?.attachments.length) return null;
  return (
    <Section title="Attachments">
      <ErrorNote error={loaded.error} />
      {loaded.data && (
        <ul class="attachments">
          {loaded.data.attachments.map((attachment) => (
            <li key={attachment.id}>
              {loaded.data!.mayDownload ? (
                <a href={`${base}${enc(attachment.id)}/?download=1`} download={attachment.name}>
                  {attachment.name}
                </a>
              ) : (
                <span>{attachment.name}</span>
              )}{' '}
              <span class="muted small">
                {formatBytes(attachment.size)} · {attachment.type}
              </span>
            </li>
          ))}
          {!loaded.data.mayDownload && <li class="muted small">Your role may not download attachments in this organization.</li>}
        </ul>
      )}
    </Section>
  );
}
