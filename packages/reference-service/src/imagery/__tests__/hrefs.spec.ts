import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { signCatalogRecordJson } from '../hrefs';
import { UrlSigner } from '../signing';

const signer = new UrlSigner(randomBytes(32), () => 1_700_000_000_000);
const expires = signer.expiresAt();

const record = (assets: object, id = 'cat-1') =>
  JSON.stringify({ id, details: { id: 'S1', assets, links: [] } });

describe('signCatalogRecordJson', () => {
  it('signs the quicklook storage URIs of archive-derived and tasking records, nothing else', () => {
    const json = record({
      thumbnail: { href: 's3://eo-archive/col/2024/05/17/S1/thumbnail.png', type: 'image/png' },
      overview: { href: 'https://data.eo-field-desk.example/col/S1/overview.png' },
      visual: { href: 's3://eo-archive/col/2024/05/17/S1/visual.tif' },
      elsewhere: { href: 'https://example.org/S1/thumbnail.png' },
    });
    const out = JSON.parse(signCatalogRecordJson(json, signer, expires, 'org-a'));
    const a = out.details.assets;
    expect(a.thumbnail.href).toBe(
      signer.sign('/quicklooks/catalog/cat-1/thumbnail.png', expires, 'org-a'),
    );
    expect(a.overview.href).toBe(
      signer.sign('/quicklooks/catalog/cat-1/overview.png', expires, 'org-a'),
    );
    expect(a.thumbnail.type).toBe('image/png');
    expect(a.visual.href).toBe('s3://eo-archive/col/2024/05/17/S1/visual.tif');
    expect(a.elsewhere.href).toBe('https://example.org/S1/thumbnail.png');
  });

  it('leaves a record alone when its id is not where the service writes it', () => {
    const json = JSON.stringify({
      area: 1,
      id: 'cat-1',
      details: { assets: { thumbnail: { href: 's3://eo-archive/x/thumbnail.png' } } },
    });
    expect(signCatalogRecordJson(json, signer, expires, 'org-a')).toBe(json);
  });

  it('percent-encodes record ids in the path', () => {
    const json = record({ thumbnail: { href: 's3://eo-archive/x/thumbnail.png' } }, 'a b/c');
    const href = JSON.parse(signCatalogRecordJson(json, signer, expires, 'org-a')).details.assets
      .thumbnail.href as string;
    expect(href.startsWith('/quicklooks/catalog/a%20b%2Fc/thumbnail.png?')).toBe(true);
  });
});
