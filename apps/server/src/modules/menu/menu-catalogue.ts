import { languageCodes } from '@campus/contracts';
import type { LanguageCode, Localised } from '@campus/contracts';
import { pickLocalised } from '../../lib/localised.ts';
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

/**
 * The systems and pages every menu is cut from. They are reference data that change only with
 * seeding or an upgrade, yet every GetMenu needs all of them: reading and parsing them per call
 * was most of its cost. They are read once and again after `ttlMs`, so a change written by
 * another server process on the same database shows within that time; a change made through
 * this process shows at once (`invalidate`).
 */
export class MenuCatalogue {
  private cached: { catalogue: Catalogue; readAt: number } | null = null;
  private loading: Promise<Catalogue> | null = null;
  private generation = 0;

  constructor(
    private readonly repo: MenuRepository,
    private readonly now: () => number,
    private readonly ttlMs = 30_000,
  ) {}

  /** Changes whenever the catalogue is read anew: results derived from it may be keyed by it. */
  get version(): number {
    return this.generation;
  }

  async get(): Promise<Catalogue> {
    if (this.cached && this.now() - this.cached.readAt < this.ttlMs) return this.cached.catalogue;
    this.loading ??= this.load().finally(() => {
      this.loading = null;
    });
    return this.loading;
  }

  invalidate(): void {
    this.cached = null;
  }

  private async load(): Promise<Catalogue> {
    const readAt = this.now();
    const [systems, pages] = await Promise.all([this.repo.systems(), this.repo.pages()]);
    const catalogue: Catalogue = {
      systems: systems.map((row) => ({ row, label: localisedAll(row.label_i18n) })),
      pages: pages.map((row) => ({ row, title: localisedAll(row.title_i18n), funcRightPerms: parseIds(row.func_right_perms) })),
    };
    this.cached = { catalogue, readAt };
    this.generation += 1;
    return catalogue;
  }
}
