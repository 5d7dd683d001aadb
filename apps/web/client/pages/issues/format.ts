/** Short relative times and counts, as an issue list shows them; `now` is passed in, never read. */

const UNITS: Array<[number, string]> = [
  [365 * 86400, 'y'],
  [30 * 86400, 'mo'],
  [86400, 'd'],
  [3600, 'h'],
  [60, 'min'],
];

export function timeAgo(value: string | null | undefined, now: number): string {
  if (!value) return '—';
  const seconds = Math.max(0, (now - new Date(value).getTime()) / 1000);
  for (const [size, unit] of UNITS) {
    if (seconds >= size) return `${Math.floor(seconds / size)} ${unit} ago`;
  }
  return 'just now';
}

/** 1,234 below ten thousand, then 12k, 3.4m: a column of counts stays narrow. */
export function shortCount(value: number | string): string {
  const number = Number(value);
  if (number < 10_000) return number.toLocaleString('en-US');
  if (number < 1_000_000) return `${Math.round(number / 1000)}k`;
  return `${(number / 1_000_000).toFixed(1).replace(/\.0$/, '')}m`;
}

export function percent(part: number, whole: number): string {
  if (!whole) return '0%';
  const value = (part / whole) * 100;
  return value > 0 && value < 1 ? '<1%' : `${Math.round(value)}%`;
}

export const plural = (count: number, noun: string): string => `${count.toLocaleString('en-US')} ${noun}${count === 1 ? '' : 's'}`;
