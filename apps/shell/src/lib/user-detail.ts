import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { UserInfo } from '@campus/contracts';
import { apiPaths } from '@campus/contracts';
import { apiGet } from './request.ts';

/** The signed-in user (spec §3 "User info"), in the current language: one query shared by layout, dialogs and host. */
export function useUserDetail(enabled = true) {
  const { i18n } = useTranslation();
  return useQuery({ queryKey: ['user-detail', i18n.language], queryFn: () => apiGet<UserInfo>(apiPaths.userDetail), retry: false, enabled });
}
