import type { ReactNode } from 'react';
import './audit.css';

interface StaffTableProps {
  /** The id of the caption (when `caption` is given) or of the heading that names the table. */
  labelId: string;
  caption?: string;
  /** Another class beside `staff-audit-table`, for a table's own column styles. */
  className?: string;
  /** The column heads, already translated. */
  columns: readonly string[];
  /** The rows (`<tr>`) of the body. */
  children: ReactNode;
}

/**
 * A staff list as a table (audit log, team, documents, schedule conflicts): on a phone it
 * scrolls sideways inside a region that the keyboard can focus and a screen reader names by
 * the table's caption or heading, so the page itself never scrolls sideways.
 */
export function StaffTable({ labelId, caption, className, columns, children }: StaffTableProps) {
  return (
    <div className="staff-audit-scroll" role="region" aria-labelledby={labelId} tabIndex={0}>
      <table className={className === undefined ? 'staff-audit-table' : `staff-audit-table ${className}`}>
        {caption !== undefined && <caption id={labelId}>{caption}</caption>}
        <thead>
          <tr>
            {columns.map((column) => (
              <th scope="col" key={column}>
                {column}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>{children}</tbody>
      </table>
    </div>
  );
}
