import type { MenuPage } from '@campus/contracts';

/** A side-menu page of system `appNo` as GetMenu answers it (its name and title are its id), for tests. */
export function sidePage(id: string, path: string, parentId: string | null, appNo = 'qy', isSide = true): MenuPage {
  return { id, path, name: id, title: id, sortNum: 0, isFuncRight: false, funcRightPerms: [], meta: { appNo, parentId, isSide } };
}
