// Test fixtures: the variant table in the shape of GET /api/variants, and legal-move lists as
// `papan moves --json` prints them (the server sends the same paths and captures).
import table from './variants.json';
import { buildGeometry, type Geometry, type VariantMeta } from '../geometry';

export const VARIANTS = (table as { variants: VariantMeta[] }).variants;

export function meta(key: string): VariantMeta {
  const v = VARIANTS.find((x) => x.key === key);
  if (!v) throw new Error(`no variant ${key} in the fixture`);
  return v;
}

export function geometry(key: string): Geometry {
  return buildGeometry(meta(key));
}
