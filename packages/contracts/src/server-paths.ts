/**
 * Server paths the specification leaves open, added next to `apiPaths` (which mirrors spec §7).
 */
export const extraApiPaths = {
  /** POST {page:{index,size}} → operation log rows of the caller's tenant (system administrators). */
  operationLogSearch: '/qy/api/OperateLog/Search',
  /** GET → the downloadable tools list (spec §7). */
  toolsList: '/tools/tools.json',
  /** GET → one tool file as an attachment (spec §7). */
  toolsFile: '/tools/:fileName',
} as const;

/** The public URL of a downloadable tool. */
export function toolFileUrl(fileName: string): string {
  return `/tools/${encodeURIComponent(fileName)}`;
}
