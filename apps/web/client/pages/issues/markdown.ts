import DOMPurify from 'dompurify';
import { Marked } from 'marked';

const escapeHtml = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** Comments are Markdown (GitHub's flavour, line breaks kept); HTML written in them shows as text. */
const markdown = new Marked({
  gfm: true,
  breaks: true,
  renderer: {
    html: ({ text }) => escapeHtml(text),
  },
});

const ALLOWED_TAGS = [
  'p',
  'br',
  'strong',
  'em',
  'del',
  'code',
  'pre',
  'blockquote',
  'ul',
  'ol',
  'li',
  'a',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'hr',
  'table',
  'thead',
  'tbody',
  'tr',
  'th',
  'td',
  'input',
];

const purifier = DOMPurify(window);
// Links open apart from the app and give the page they open no handle on it.
purifier.addHook('afterSanitizeAttributes', (node) => {
  if (node.tagName === 'A') {
    node.setAttribute('target', '_blank');
    node.setAttribute('rel', 'noopener noreferrer nofollow');
  }
  if (node.tagName === 'INPUT' && node.getAttribute('type') !== 'checkbox') node.remove();
});

/**
 * A comment's Markdown as HTML that is safe to insert: nothing but formatting, links with http(s),
 * mailto or relative addresses, and GitHub's task list boxes survive.
 */
export function renderMarkdown(text: string): string {
  const html = markdown.parse(text, { async: false });
  return purifier
    .sanitize(html, {
      ALLOWED_TAGS,
      ALLOWED_ATTR: ['href', 'title', 'type', 'checked', 'disabled', 'align'],
      ALLOWED_URI_REGEXP: /^(?:https?:|mailto:|[^a-z]|[a-z+.-]+(?:[^a-z+.\-:]|$))/i,
    })
    .trim();
}
