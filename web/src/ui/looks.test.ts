import { describe, expect, it } from 'vitest';
import { defaultLook, lookFor } from './looks';

describe('board looks', () => {
  it('opens Turkish dama on the lined wooden board where players know plain dama, candy elsewhere', () => {
    expect(defaultLook('turkish', ['tr-TR', 'en'])).toBe('classic');
    expect(defaultLook('turkish', ['el'])).toBe('classic');
    expect(defaultLook('turkish', ['id-ID', 'en-US'])).toBe('candy');
    expect(defaultLook('turkish', [])).toBe('candy');
    // the other variants keep classic wood
    expect(defaultLook('american', ['id-ID'])).toBe('classic');
    expect(defaultLook('international', ['tr'])).toBe('classic');
  });

  it("keeps the player's own choice in every variant", () => {
    expect(lookFor({ chosenLook: 'classic' }, 'turkish', ['id'])).toBe('classic');
    expect(lookFor({ chosenLook: 'candy' }, 'american', ['tr'])).toBe('candy');
    expect(lookFor({ chosenLook: null }, 'turkish', ['id'])).toBe('candy');
  });
});
