import { languageCodes } from '@campus/contracts';
import type { LanguageCode, Localised } from '@campus/contracts';
import { pickLocalised } from '../../lib/localised.ts';
import { TimedCache } from '../../lib/timed-cache.ts';
import type { MenuRepository, PageRow, SystemRow } from './menu-repository.ts';

/** A system of the catalogue with its label already resolved for each language. */
export interface CatalogueSystem {
  row: SystemRow;
  label: Localised;
}

/** A page of the catalogue with its title and function rights already parsed. */
export interface CataloguePage {
  row: PageRow;
  title: Localised;
  funcRightPerms: string[];
}

export interface Catalogue {
  /** The catalogue's change stamp read before it (db/change-stamps.ts); null when it could not be read. */
  stamp: number | null;
  /** Ascending by sortNum. */
  systems: CatalogueSystem[];
  /** Ascending by sortNum. */
  pages: CataloguePage[];
}

export function parseIds(json: string): string[] {
  try {
    const value: unknown = JSON.parse(json);
    return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
  } catch {
    return [];
  }
}

function localisedAll(json: string): Localised {
  return Object.fromEntries(languageCodes.map((code: LanguageCode) => [code, pickLocalised(json, code)])) as Localised;
}

export interface MenuCatalogueDeps {
  repo: MenuRepository;
  now: () => number;
  /** How long the catalogue is kept for callers without a change stamp (TimedCache). */
  ttlMs?: number;
}

/**
 * The systems and pages every menu is cut from. They are reference data that change only with
 * seeding, an upgrade or a sub-system's registration, yet every GetMenu needs all of them: reading and
 * parsing them per call was most of its cost. They are kept: a signed-in call brings the catalogue's change stamp
 * read with its session, and they are read again when it is not theirs (getAt), so a change made on any node shows
 * at the next call; other callers get them from a TimedCache (see there for when a change shows).
 */
export class MenuCatalogue {
  private readonly cache: TimedCache<Catalogue>;

  constructor({ repo, now, ttlMs = 30_000 }: MenuCatalogueDeps) {
    this.cache = new TimedCache(async () => {
      // the stamp first: the rows read after it are at least as new
      const stamp = await repo.catalogueStamp();
      const [systems, pages] = await Promise.all([repo.systems(), repo.pages()]);
      return {
        stamp,
        systems: systems.map((row) => ({ row, label: localisedAll(row.label_i18n) })),
        pages: pages.map((row) => ({ row, title: localisedAll(row.title_i18n), funcRightPerms: parseIds(row.func_right_perms) })),
      };
    }, now, ttlMs);
  }

  /** Changes whenever the catalogue is read anew: results derived from it may be keyed by it. */
  get version(): number {
    return this.cache.version;
  }

  get(): Promise<Catalogue> {
    return this.cache.get();
  }

  /** The catalogue for a call that read change stamp `stamp` (read again when the kept one was read under another). */
  getAt(stamp: number): Promise<Catalogue> {
    return this.cache.getAt(stamp, (catalogue) => catalogue.stamp);
  }

  invalidate(): void {
    this.cache.invalidate();
  }
}
