import { useCallback, useRef } from 'react';
import type { CSSProperties } from 'react';
import { Table } from 'antd';
import type { TableProps } from 'antd';
import './height-limited-table.css';

export interface HeightLimitedTableProps<T> extends Omit<TableProps<T>, 'scroll'> {
  /** The most the rows may take before they scroll under the header, in px. */
  bodyHeight: number;
  /** Wider than this, the table scrolls sideways. */
  scrollX?: number;
  /** What the table lists: the name of its scrolling region, which takes the focus so the keyboard can scroll it. */
  label: string;
}

/**
 * A table whose rows scroll under a header that stays in view. antd's own way (`scroll.y`) draws the header and
 * the rows as two <table>s, so a screen reader no longer finds a cell's column header: here it stays one table,
 * scrolling in its own box, with the header held by `position: sticky`.
 */
export function HeightLimitedTable<T extends object>({ bodyHeight, scrollX, label, style, className, ...table }: HeightLimitedTableProps<T>) {
  const observer = useRef<MutationObserver | null>(null);
  const container = useCallback(
    (element: HTMLDivElement | null) => {
      observer.current?.disconnect();
      if (!element) return;
      const mark = () => {
        // antd measures column widths in a hidden row holding copies of the titles (a select-all checkbox among
        // them): inert, it leaves the Tab order and the accessibility tree
        element.querySelectorAll('.ant-table-measure-row:not([inert])').forEach((row) => row.setAttribute('inert', ''));
        const scroller = element.querySelector('.ant-table-content');
        if (scroller && scroller.getAttribute('aria-label') !== label) {
          scroller.setAttribute('tabindex', '0');
          scroller.setAttribute('role', 'region');
          scroller.setAttribute('aria-label', label);
        }
      };
      mark();
      observer.current = new MutationObserver(mark);
      observer.current.observe(element, { childList: true, subtree: true });
    },
    [label],
  );
  return (
    <div ref={container} className="campus-height-limited-table" style={{ '--campus-table-body-height': `${bodyHeight}px` } as CSSProperties}>
      <Table<T> {...table} className={className} style={style} scroll={scrollX === undefined ? undefined : { x: scrollX }} />
    </div>
  );
}
