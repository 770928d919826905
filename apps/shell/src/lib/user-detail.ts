import { useQuery } from '@tanstack/react-query';
import type { UserInfo } from '@campus/contracts';
import { apiPaths } from '@campus/contracts';
import { useTranslation } from './use-translation.ts';
import { apiGet } from './request.ts';
import { takeEarly } from './layout-data.ts';

/** The signed-in user (spec §3 "User info"), in the current language: one query shared by layout, dialogs and host. */
export function useUserDetail(enabled = true) {
  const { i18n } = useTranslation();
  const language = i18n.language;
  return useQuery({
    queryKey: ['user-detail', language],
    queryFn: () => apiGet<UserInfo>(apiPaths.userDetail),
    // fetched beside the menus, so the layout's first render has it (lib/layout-data.ts)
    initialData: () => takeEarly('user-detail', language),
    retry: false,
    enabled,
  });
}
