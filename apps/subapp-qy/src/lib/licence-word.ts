import type { LicenceCondition } from '@campus/contracts';

/** How a licence condition (contracts' licenceCondition) is coloured: success, warning or error. */
export function licenceTone(condition: LicenceCondition): 'success' | 'warning' | 'error' {
  if (condition === 'normal') return 'success';
  if (condition === 'notStarted' || condition === 'none') return 'warning';
  return 'error';
}
