import type { ComponentChildren } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';
import type { StatsPoint } from './types';
import { plural } from './format';

/** A row of bars, one per bucket, scaled to the largest: the trend column of the issue list. */
export function Sparkline(props: { points: StatsPoint[]; label: string }) {
  const max = Math.max(1, ...props.points.map(([, count]) => count));
  const total = props.points.reduce((sum, [, count]) => sum + count, 0);
  const width = props.points.length * 4;
  return (
    <svg class="sparkline" viewBox={`0 0 ${width} 24`} preserveAspectRatio="none" role="img" aria-label={`${plural(total, 'event')} ${props.label}`}>
      {props.points.map(([at, count], index) => (
        <rect
          key={at}
          x={index * 4}
          y={24 - Math.max(count ? 2 : 0.5, (count / max) * 24)}
          width={3}
          height={Math.max(count ? 2 : 0.5, (count / max) * 24)}
          class={count ? 'bar' : 'bar empty'}
        />
      ))}
    </svg>
  );
}

const hourLabel = (at: number) => new Date(at * 1000).toLocaleString(undefined, { weekday: 'short', hour: '2-digit', minute: '2-digit' });
const dayLabel = (at: number) => new Date(at * 1000).toLocaleDateString(undefined, { weekday: 'short', month: 'short', day: 'numeric' });

/** The issue page's graph: events per hour or per day. */
export function EventsChart(props: { points: StatsPoint[]; daily: boolean }) {
  const label = props.daily ? dayLabel : hourLabel;
  return (
    <CountChart
      bars={props.points.map(([at, count]) => ({ key: at, count, label: label(at) }))}
      noun="event"
      period={props.daily ? '30 days' : '24 hours'}
      end={props.daily ? 'today' : 'now'}
      step={10}
    />
  );
}

/** Counts over a period as bars, the largest count marking the scale, each bar telling its label and count on hover. */
export function CountChart(props: {
  bars: ReadonlyArray<{ key: string | number; count: number; label: string }>;
  noun: string;
  period: string;
  end: string;
  step: number;
  class?: string;
}) {
  const { bars, step } = props;
  const max = Math.max(1, ...bars.map((bar) => bar.count));
  const total = bars.reduce((sum, bar) => sum + bar.count, 0);
  return (
    <figure class={props.class ? `events-chart ${props.class}` : 'events-chart'}>
      <div class="chart-area">
        <span class="chart-max" aria-hidden="true">
          {max}
        </span>
        <svg
          viewBox={`0 0 ${bars.length * step} 60`}
          preserveAspectRatio="none"
          role="img"
          aria-label={`${plural(total, props.noun)} in the last ${props.period}`}
        >
          {bars.map((bar, index) => {
            const height = bar.count ? Math.max(1.5, (bar.count / max) * 58) : 0.6;
            return (
              <rect key={bar.key} x={index * step + step / 10} y={60 - height} width={step * 0.8} height={height} class={bar.count ? 'bar' : 'bar empty'}>
                <title>{`${bar.label}: ${plural(bar.count, props.noun)}`}</title>
              </rect>
            );
          })}
        </svg>
      </div>
      <figcaption class="chart-axis muted small" aria-hidden="true">
        <span>{props.period} ago</span>
        <span>{plural(total, props.noun)}</span>
        <span>{props.end}</span>
      </figcaption>
    </figure>
  );
}

export function LevelMark(props: { level: string }) {
  return <span class={`level-mark level-${props.level}`} title={`Level: ${props.level}`} aria-label={`Level ${props.level}`} role="img" />;
}

export interface MenuItem {
  label: string;
  onSelect: () => void;
  disabled?: boolean;
}

export interface MenuGroup {
  label?: string;
  items: MenuItem[];
}

/**
 * A button that opens a menu of actions: arrow keys move between the items, Enter or Space picks
 * one, Escape (or a click elsewhere) closes it and gives the focus back to the button.
 */
export function Menu(props: { label: string; children: ComponentChildren; groups: MenuGroup[]; disabled?: boolean; class?: string; align?: 'left' | 'right' }) {
  const [open, setOpen] = useState(false);
  const wrapper = useRef<HTMLDivElement>(null);
  const button = useRef<HTMLButtonElement>(null);
  const [id] = useState(() => `menu-${Math.random().toString(36).slice(2)}`);

  const items = () => Array.from(wrapper.current?.querySelectorAll<HTMLButtonElement>('[role="menuitem"]:not([disabled])') ?? []);
  const close = (refocus: boolean) => {
    setOpen(false);
    if (refocus) button.current?.focus();
  };
  useEffect(() => {
    if (!open) return;
    items()[0]?.focus();
    const outside = (event: MouseEvent) => {
      if (!wrapper.current?.contains(event.target as Node)) setOpen(false);
    };
    // Escape closes it wherever the focus is (a click may have left it on the page).
    const escape = (event: KeyboardEvent) => {
      if (event.key !== 'Escape') return;
      event.preventDefault();
      setOpen(false);
      button.current?.focus();
    };
    document.addEventListener('mousedown', outside);
    document.addEventListener('keydown', escape);
    return () => {
      document.removeEventListener('mousedown', outside);
      document.removeEventListener('keydown', escape);
    };
  }, [open]);

  const onKeyDown = (event: KeyboardEvent) => {
    const list = items();
    const index = list.indexOf(document.activeElement as HTMLButtonElement);
    const move = (to: number) => {
      event.preventDefault();
      list[(to + list.length) % list.length]?.focus();
    };
    if (event.key === 'ArrowDown') move(index + 1);
    else if (event.key === 'ArrowUp') move(index - 1);
    else if (event.key === 'Home') move(0);
    else if (event.key === 'End') move(list.length - 1);
    else if (event.key === 'Tab') setOpen(false);
  };

  return (
    <div class="menu" ref={wrapper}>
      <button
        type="button"
        ref={button}
        class={props.class}
        aria-haspopup="menu"
        aria-expanded={open}
        aria-controls={open ? id : undefined}
        aria-label={props.label}
        disabled={props.disabled}
        onClick={() => setOpen(!open)}
        onKeyDown={(event) => {
          if (event.key === 'ArrowDown' && !open) {
            event.preventDefault();
            setOpen(true);
          }
        }}
      >
        {props.children}
      </button>
      {open && (
        <div class={`menu-list ${props.align === 'right' ? 'align-right' : ''}`} role="menu" id={id} aria-label={props.label} onKeyDown={onKeyDown}>
          {props.groups.map((group, groupIndex) => (
            <div key={groupIndex} role="group" aria-label={group.label}>
              {group.label && (
                <div class="menu-heading" aria-hidden="true">
                  {group.label}
                </div>
              )}
              {group.items.map((item) => (
                <button
                  key={item.label}
                  type="button"
                  role="menuitem"
                  tabIndex={-1}
                  disabled={item.disabled}
                  onClick={() => {
                    close(true);
                    item.onSelect();
                  }}
                >
                  {item.label}
                </button>
              ))}
            </div>
          ))}
        </div>
      )}
    </div>
  );
}
