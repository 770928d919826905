import { cloneElement, isValidElement, type ReactNode } from 'react';
import type { PaginationProps } from 'antd';
import { useTranslation } from './use-translation.ts';

type ItemRender = NonNullable<PaginationProps['itemRender']>;

const nameKeys = {
  prev: 'pagination.previous',
  next: 'pagination.next',
  'jump-prev': 'pagination.previousFive',
  'jump-next': 'pagination.nextFive',
} as const;

/**
 * Names for a table pager's arrow buttons, in the user's language: antd draws them with an icon only, which was
 * named "left" and "right" in English and is decoration now (vite-plugins/decorative-icons.ts). Spread into
 * every paginated table's `pagination`.
 */
export function usePaginationNames(): { itemRender: ItemRender } {
  const { t } = useTranslation();
  const itemRender: ItemRender = (_page, type, element: ReactNode) => {
    if (type === 'page' || !isValidElement<{ 'aria-label'?: string }>(element)) return element;
    return cloneElement(element, { 'aria-label': t(nameKeys[type]) });
  };
  return { itemRender };
}
