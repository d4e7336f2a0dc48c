/**
 * Orders (spec 2.3), their order items (2.4) and the tasks that fulfil them (2.5).
 *
 * State and every filterable value live in columns; nested wire values (bandset, uplifts,
 * occurrences, images, geometry, validation errors) are JSON text. Instants are integer µs.
 * Lists sort by (created_at, id), so each list filter has an index ending in those columns.
 */
import { blob, index, integer, real, sqliteTable, text } from 'drizzle-orm/sqlite-core';

export const orders = sqliteTable(
  'orders',
  {
    seq: integer('seq').primaryKey({ autoIncrement: true }),
    id: text('id').notNull().unique(),
    orgId: text('org_id').notNull(),
    userId: text('user_id').notNull(),
    createdBy: text('created_by').notNull(),
    updatedBy: text('updated_by').notNull(),
    /** UNPAID -> PAYMENT_IN_PROGRESS -> PAID (-> REFUND when every item was refunded). */
    status: text('status').notNull(),
    totalAmount: real('total_amount').notNull(),
    /** Sum of the refunds of its items. */
    refundedAmount: real('refunded_amount').notNull().default(0),
    transactionId: text('transaction_id'),
    paidAt: integer('paid_at'),
    createdAt: integer('created_at').notNull(),
    updatedAt: integer('updated_at').notNull(),
    /**
     * The order as GET /v0/orders sends it (with its items, UTF-8 JSON bytes), re-rendered
     * in the same transaction as every change to the order or its items: a derived copy that
     * lets the list send stored bytes instead of rebuilding JSON per request.
     */
    wireJson: blob('wire_json', { mode: 'buffer' }).notNull(),
    /** Bumped by every re-render: (id, wire_version) names one exact wire_json. */
    wireVersion: integer('wire_version').notNull().default(0),
  },
  (t) => [
    // wire_version in the list indexes lets a page of (id, version) come from the index alone.
    index('orders_org_created').on(t.orgId, t.createdAt, t.id, t.wireVersion),
    index('orders_org_user_created').on(t.orgId, t.userId, t.createdAt, t.id, t.wireVersion),
  ],
);

export const orderItems = sqliteTable(
  'order_items',
  {
    seq: integer('seq').primaryKey({ autoIncrement: true }),
    id: text('id').notNull().unique(),
    orderId: text('order_id').notNull(),
    /** Index of the item in the create request: the order of `order_items` in an order. */
    position: integer('position').notNull(),
    orgId: text('org_id').notNull(),
    projectId: text('project_id').notNull(),
    userId: text('user_id').notNull(),
    createdBy: text('created_by').notNull(),
    updatedBy: text('updated_by').notNull(),
    name: text('name').notNull(),
    type: text('type').notNull(),
    status: text('status').notNull(),
    paymentStatus: text('payment_status').notNull(),
    feasibilityStatus: text('feasibility_status').notNull(),
    lastFeasibilityCheck: integer('last_feasibility_check').notNull(),
    /** Ordered area in km². */
    area: real('area').notNull(),
    satelliteId: text('satellite_id').notNull(),
    bandsetJson: text('bandset_json').notNull(),
    numberOfBands: integer('number_of_bands').notNull(),
    baseAmount: real('base_amount').notNull(),
    finalAmount: real('final_amount').notNull(),
    refundedAmount: real('refunded_amount').notNull().default(0),
    tokensUsed: real('tokens_used').notNull(),
    transactionId: text('transaction_id'),
    upliftsJson: text('uplifts_json').notNull(),
    cloudCover: real('cloud_cover'),
    offNadir: real('off_nadir'),
    cloudDeliveryJson: text('cloud_delivery_json'),
    deliverySpeed: text('delivery_speed').notNull(),
    imageType: text('image_type').notNull(),
    recurrence: text('recurrence').notNull(),
    usecase: text('usecase'),
    startDate: integer('start_date'),
    endDate: integer('end_date'),
    noOfOccurrences: integer('no_of_occurrences').notNull(),
    occurrencesJson: text('occurrences_json'),
    /** Archive scene ids (ARCHIVE items), in request order. */
    itemIdsJson: text('item_ids_json'),
    imagesJson: text('images_json').notNull(),
    geometryJson: text('geometry_json').notNull(),
    validationErrorsJson: text('validation_errors_json').notNull(),
    createdAt: integer('created_at').notNull(),
    updatedAt: integer('updated_at').notNull(),
  },
  (t) => [
    index('order_items_order').on(t.orderId, t.position),
    index('order_items_org_created').on(t.orgId, t.createdAt, t.id),
    index('order_items_org_user_created').on(t.orgId, t.userId, t.createdAt, t.id),
    index('order_items_org_project_created').on(t.orgId, t.projectId, t.createdAt, t.id),
    index('order_items_org_status_created').on(t.orgId, t.status, t.createdAt, t.id),
    index('order_items_org_type_created').on(t.orgId, t.type, t.createdAt, t.id),
  ],
);

export const tasks = sqliteTable(
  'tasks',
  {
    seq: integer('seq').primaryKey({ autoIncrement: true }),
    id: text('id').notNull().unique(),
    orderItemId: text('order_item_id').notNull(),
    orderId: text('order_id').notNull(),
    orgId: text('org_id').notNull(),
    /** 0-based position among the tasks of its item (failure injection names tasks by it). */
    position: integer('position').notNull(),
    /** ARCHIVE or TASKING (a recurring item's occurrences are TASKING tasks). */
    type: text('type').notNull(),
    status: text('status').notNull(),
    deliveryStatus: text('delivery_status').notNull(),
    startDate: integer('start_date').notNull(),
    endDate: integer('end_date').notNull(),
    numberOfStrips: integer('number_of_strips').notNull(),
    tokensUsed: real('tokens_used').notNull(),
    transactionId: text('transaction_id'),
    /** The archive scene an ARCHIVE task delivers. */
    sceneId: text('scene_id'),
    /** The catalog record a COMPLETED task produced. */
    catalogId: text('catalog_id'),
    failureReason: text('failure_reason'),
    createdBy: text('created_by').notNull(),
    updatedBy: text('updated_by').notNull(),
    createdAt: integer('created_at').notNull(),
    updatedAt: integer('updated_at').notNull(),
  },
  (t) => [index('tasks_item').on(t.orderItemId, t.position)],
);

/**
 * A counter per organisation, bumped in the same transaction as every write to its orders or
 * their items (new order, re-render): GET /v0/orders names a cached page by the query and
 * this version, so a repeated poll of an unchanged list costs one indexed read.
 */
export const orderListVersions = sqliteTable('order_list_versions', {
  orgId: text('org_id').primaryKey(),
  version: integer('version').notNull(),
});
