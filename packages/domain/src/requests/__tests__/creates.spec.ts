import { describe, expect, it } from 'vitest';
import {
  CreateAoiRequest,
  CreateDeliveriesRequest,
  CreateIndexRequest,
  CreateVisualizationRequest,
  CloudDeliveryInput,
  DeliveryRequestInput,
  LIMITS,
  parseCloudPath,
  utf8Length,
} from '../../index';
import { expectIssueAt, issuesOf, parseOk, shapeKeys } from '../../__tests__/support';
import {
  buildCreateAoiRequest,
  buildCreateDeliveriesRequest,
  buildCreateIndexRequest,
  buildCreateVisualizationRequest,
  buildDeliveryRequestInput,
} from '../../testing';

const without = (v: object, key: string): Record<string, unknown> => {
  const copy: Record<string, unknown> = { ...(v as Record<string, unknown>) };
  delete copy[key];
  return copy;
};

describe('create index (4.7): every field required', () => {
  it('the spec lists exactly these fields', () => {
    expect(shapeKeys(CreateIndexRequest).sort()).toEqual(
      [
        'colormap',
        'description',
        'expression',
        'expression_type',
        'name',
        'rescale',
        'satellite_id',
        'type',
      ].sort(),
    );
  });

  it.each(shapeKeys(CreateIndexRequest))('without %s: rejected at that field', (key) => {
    expectIssueAt(CreateIndexRequest, without(buildCreateIndexRequest(), key), [key]);
  });

  it('values', () => {
    const base = buildCreateIndexRequest();
    expectIssueAt(
      CreateIndexRequest,
      { ...base, rescale: [0, 1.5] },
      ['rescale', 1],
      'rescale values are integers',
    );
    expectIssueAt(
      CreateIndexRequest,
      { ...base, rescale: [] },
      ['rescale'],
      'rescale needs at least one value',
    );
    expectIssueAt(
      CreateIndexRequest,
      { ...base, expression: '  ' },
      ['expression'],
      'expression is required',
    );
    expectIssueAt(CreateIndexRequest, { ...base, name: '' }, ['name'], 'name is required');
    expectIssueAt(CreateIndexRequest, { ...base, expression_type: 'Composite' }, [
      'expression_type',
    ]);
    expectIssueAt(CreateIndexRequest, { ...base, type: 'CUSTOM' }, ['type']);
    expect(parseOk(CreateIndexRequest, { ...base, description: '' }).description).toBe('');
  });

  it('rejects unknown fields (bands are derived, not an input)', () => {
    const issue = expectIssueAt(
      CreateIndexRequest,
      { ...buildCreateIndexRequest(), bands: ['B04'] },
      [],
    );
    expect(issue.message).toContain('bands');
  });
});

describe('create visualization (4.10)', () => {
  it('needs index_id and a non-empty src_asset_ids', () => {
    parseOk(CreateVisualizationRequest, buildCreateVisualizationRequest.minimal());
    expectIssueAt(
      CreateVisualizationRequest,
      without(buildCreateVisualizationRequest(), 'index_id'),
      ['index_id'],
    );
    expectIssueAt(
      CreateVisualizationRequest,
      { ...buildCreateVisualizationRequest(), index_id: '' },
      ['index_id'],
      'index_id is required',
    );
    expectIssueAt(
      CreateVisualizationRequest,
      { ...buildCreateVisualizationRequest(), src_asset_ids: [] },
      ['src_asset_ids'],
      /at least one asset id/,
    );
    expectIssueAt(
      CreateVisualizationRequest,
      { ...buildCreateVisualizationRequest(), src_asset_ids: 'a,b' },
      ['src_asset_ids'],
    );
    expectIssueAt(
      CreateVisualizationRequest,
      { ...buildCreateVisualizationRequest(), aoi_id: 'x' },
      [],
    );
  });
});

describe('create deliveries (4.11): exactly one of catalog_ids / order_item_ids', () => {
  const cloud_info = { config: 'aws-s3-eu-west-1', path: 's3://bucket/prefix/' };

  it('one list given: accepted (an empty other list counts as absent)', () => {
    parseOk(DeliveryRequestInput, { catalog_ids: ['c1'], cloud_info });
    parseOk(DeliveryRequestInput, { order_item_ids: ['i1', 'i2'], cloud_info });
    parseOk(DeliveryRequestInput, { catalog_ids: [], order_item_ids: ['i1'], cloud_info });
  });

  it('neither: rejected at catalog_ids', () => {
    for (const v of [
      { cloud_info },
      { catalog_ids: [], cloud_info },
      { catalog_ids: [], order_item_ids: [], cloud_info },
    ]) {
      expectIssueAt(
        CreateDeliveriesRequest,
        { deliveries: [v] },
        ['deliveries', 0, 'catalog_ids'],
        'give exactly one of catalog_ids or order_item_ids (non-empty)',
      );
    }
  });

  it('both: rejected at order_item_ids', () => {
    const body = {
      deliveries: [
        buildDeliveryRequestInput(),
        { catalog_ids: ['c1'], order_item_ids: ['i1'], cloud_info },
      ],
    };
    const issues = issuesOf(CreateDeliveriesRequest, body);
    expect(issues).toEqual([
      {
        path: ['deliveries', 1, 'order_item_ids'],
        message: 'give catalog_ids or order_item_ids, not both',
        code: 'custom',
      },
    ]);
  });

  it('cloud_info is required, with non-empty config and path', () => {
    expectIssueAt(DeliveryRequestInput, { catalog_ids: ['c1'] }, ['cloud_info']);
    expectIssueAt(
      DeliveryRequestInput,
      { catalog_ids: ['c1'], cloud_info: { config: '', path: 'p' } },
      ['cloud_info', 'config'],
      'config must not be empty',
    );
    expectIssueAt(
      DeliveryRequestInput,
      { catalog_ids: ['c1'], cloud_info: { ...cloud_info, region: 'eu' } },
      ['cloud_info'],
    );
  });

  it('1..maxDeliveries requests; the response field name cloud_delivery is not the input name', () => {
    expectIssueAt(
      CreateDeliveriesRequest,
      { deliveries: [] },
      ['deliveries'],
      'deliveries needs at least one delivery request',
    );
    const many = Array.from({ length: LIMITS.maxDeliveries + 1 }, () =>
      buildDeliveryRequestInput.minimal(),
    );
    expectIssueAt(
      CreateDeliveriesRequest,
      { deliveries: many },
      ['deliveries'],
      `at most ${LIMITS.maxDeliveries}`,
    );
    expectIssueAt(DeliveryRequestInput, { catalog_ids: ['c1'], cloud_delivery: cloud_info }, []);
    parseOk(CreateDeliveriesRequest, buildCreateDeliveriesRequest());
  });
});

describe('create AOI (4.12)', () => {
  it.each([
    'name',
    'description',
    'satellite_id',
    'provider',
    'project_id',
    'geometry',
    'item_ids',
  ])('without %s: rejected at that field', (key) => {
    expectIssueAt(CreateAoiRequest, without(buildCreateAoiRequest(), key), [key]);
  });

  it('geometry must be a Polygon or MultiPolygon', () => {
    const base = buildCreateAoiRequest();
    for (const g of [
      { type: 'Point', coordinates: [1.6, 48.2] },
      {
        type: 'LineString',
        coordinates: [
          [1.6, 48.2],
          [1.7, 48.3],
        ],
      },
      { type: 'GeometryCollection', geometries: [base.geometry] },
    ]) {
      expectIssueAt(
        CreateAoiRequest,
        { ...base, geometry: g },
        ['geometry', 'type'],
        /Polygon.*MultiPolygon/,
      );
    }
    const multi = { type: 'MultiPolygon', coordinates: [base.geometry.coordinates] };
    expect(parseOk(CreateAoiRequest, { ...base, geometry: multi }).geometry).toEqual(multi);
  });

  it('rings must be closed and hold at least 4 positions', () => {
    const base = buildCreateAoiRequest();
    const open = [
      [1.6, 48.2],
      [1.7, 48.2],
      [1.7, 48.3],
      [1.6, 48.3],
    ];
    expectIssueAt(
      CreateAoiRequest,
      { ...base, geometry: { type: 'Polygon', coordinates: [open] } },
      ['geometry', 'coordinates', 0],
      'a polygon ring must be closed: its last position must equal its first',
    );
    expectIssueAt(
      CreateAoiRequest,
      { ...base, geometry: { type: 'MultiPolygon', coordinates: [[open]] } },
      ['geometry', 'coordinates', 0, 0],
      /must be closed/,
    );
    const hole = [
      [1.62, 48.22],
      [1.63, 48.22],
      [1.63, 48.23],
    ];
    expectIssueAt(
      CreateAoiRequest,
      { ...base, geometry: { type: 'Polygon', coordinates: [base.geometry.coordinates[0], hole] } },
      ['geometry', 'coordinates', 1],
      /at least 4 positions/,
    );
    expectIssueAt(
      CreateAoiRequest,
      { ...base, geometry: { type: 'Polygon', coordinates: [] } },
      ['geometry', 'coordinates'],
      /outer ring/,
    );
  });

  it('positions are [lon, lat] within WGS84 ranges', () => {
    const base = buildCreateAoiRequest();
    const ring = (p: number[]) => [p, [1.7, 48.2], [1.7, 48.3], p];
    expectIssueAt(
      CreateAoiRequest,
      { ...base, geometry: { type: 'Polygon', coordinates: [ring([181, 48.2])] } },
      ['geometry', 'coordinates', 0, 0, 0],
      'longitude must be <= 180',
    );
    expectIssueAt(
      CreateAoiRequest,
      { ...base, geometry: { type: 'Polygon', coordinates: [ring([1.6, -91])] } },
      ['geometry', 'coordinates', 0, 0, 1],
      'latitude must be >= -90',
    );
    expectIssueAt(
      CreateAoiRequest,
      { ...base, geometry: { type: 'Polygon', coordinates: [ring([1.6])] } },
      ['geometry', 'coordinates', 0, 0],
    );
  });

  it('strict geometry members; a bbox member is allowed', () => {
    const base = buildCreateAoiRequest();
    parseOk(CreateAoiRequest, { ...base, geometry: { ...base.geometry, bbox: [1, 2, 3, 4] } });
    expectIssueAt(CreateAoiRequest, { ...base, geometry: { ...base.geometry, crs: 'EPSG:4326' } }, [
      'geometry',
    ]);
  });

  it('item_ids needs at least one id; unknown fields rejected', () => {
    expectIssueAt(
      CreateAoiRequest,
      { ...buildCreateAoiRequest(), item_ids: [] },
      ['item_ids'],
      /at least one archive item id/,
    );
    const issue = expectIssueAt(
      CreateAoiRequest,
      { ...buildCreateAoiRequest(), is_favourite: true },
      [],
    );
    expect(issue.message).toContain('is_favourite');
  });
});

describe('delivery paths: one rule for orders (cloud_delivery.path) and deliveries (cloud_info.path)', () => {
  const refused = [
    'file:///etc',
    'http://example.com/x',
    '/etc',
    '~/x',
    '%2e%2e/%2e%2e',
    '../x',
    'a/./b',
    'a\\b',
    'C:\\temp',
    'a\u0000b',
    'a\u0085b',
    `${'x'.repeat(256)}`,
    '/',
    '',
    'x/'.repeat(600),
  ];
  const accepted = ['exports/field', 's3://bucket/prefix/', 'GS://b/x', 'Ernte 2024/Süd', 'a//b/'];

  it('parses what it accepts into a scheme and folder names', () => {
    expect(parseCloudPath('s3://bucket/prefix/')).toEqual({
      ok: true,
      value: { scheme: 's3', segments: ['bucket', 'prefix'] },
    });
    expect(parseCloudPath('a//b/')).toEqual({
      ok: true,
      value: { scheme: null, segments: ['a', 'b'] },
    });
    expect(utf8Length('é'.repeat(127) + 'x')).toBe(255);
    expect(parseCloudPath('é'.repeat(127) + 'x').ok).toBe(true);
    expect(parseCloudPath('é'.repeat(128)).ok).toBe(false);
  });

  it('the same answer in both request bodies, at the field path', () => {
    for (const p of refused) {
      expectIssueAt(CloudDeliveryInput, { config: 'c', path: p }, ['path']);
      expectIssueAt(
        DeliveryRequestInput,
        { catalog_ids: ['c1'], cloud_info: { config: 'c', path: p } },
        ['cloud_info', 'path'],
      );
    }
    for (const p of accepted) {
      parseOk(CloudDeliveryInput, { config: 'c', path: p });
      parseOk(DeliveryRequestInput, { catalog_ids: ['c1'], cloud_info: { config: 'c', path: p } });
    }
  });
});
