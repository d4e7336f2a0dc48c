/**
 * Types of the client's methods, derived from the domain endpoint table, so a new or changed
 * endpoint changes the client's signatures with it.
 */
import type {
  EndpointId,
  Endpoints,
  ExtensionEndpointId,
  ProviderReadEndpointId,
} from '@eo/domain';
import type { z } from 'zod';
import type { CallOptions } from './options';

/**
 * `z.input` of a request schema with its `unknown` holes filled from `z.output`: coerced query
 * numbers (`limit`, `offset`) have input type unknown, and recursive geometry schemas are typed
 * `ZodType<Geometry>` whose input is unknown. Callers should see `number` and `Geometry`.
 */
export type Fill<I, O> = unknown extends I
  ? O
  : I extends readonly unknown[]
    ? { [K in keyof I]: Fill<I[K], O extends readonly (infer E)[] ? E : never> }
    : I extends object
      ? { [K in keyof I]: Fill<I[K], K extends keyof NonNullable<O> ? NonNullable<O>[K] : never> }
      : I;

type Def<Id extends EndpointId> = Endpoints[Id];
type SchemaAt<Id extends EndpointId, K extends 'params' | 'query' | 'body'> =
  Def<Id> extends { readonly [P in K]: infer S extends z.ZodType } ? S : never;
type InputOf<S> = [S] extends [never]
  ? never
  : S extends z.ZodType
    ? Fill<z.input<S>, z.output<S>>
    : never;

/** Query parameters of an endpoint as a caller writes them (defaults optional, lists as arrays or CSV). */
export type QueryInput<Id extends EndpointId> = InputOf<SchemaAt<Id, 'query'>>;
/** Request body of an endpoint as a caller writes it. */
export type BodyInput<Id extends EndpointId> = InputOf<SchemaAt<Id, 'body'>>;
/** What a call resolves to: the response after the domain schema's parse (defaults applied). */
export type ResponseOf<Id extends EndpointId> = z.output<Def<Id>['response']>;

/** Endpoints whose data argument is the body: those with a body that is not optional. */
type TakesBody<Id extends EndpointId> = [SchemaAt<Id, 'body'>] extends [never]
  ? false
  : undefined extends z.input<SchemaAt<Id, 'body'>>
    ? false
    : true;

/** The data argument of a method: the body of POSTs that take one, else the query. */
export type DataInput<Id extends EndpointId> =
  TakesBody<Id> extends true ? BodyInput<Id> : QueryInput<Id>;

type PathArgs<Id extends EndpointId> = [SchemaAt<Id, 'params'>] extends [never]
  ? []
  : [pathParam: string];
type DataArgs<Id extends EndpointId> = [DataInput<Id>] extends [never]
  ? []
  : object extends DataInput<Id>
    ? [data?: DataInput<Id>]
    : [data: DataInput<Id>];

/** `(pathParam?, data?, options?)`: the path parameter when the path has one, then query/body. */
export type MethodArgs<Id extends EndpointId> = [
  ...PathArgs<Id>,
  ...DataArgs<Id>,
  options?: CallOptions,
];

/** One method per endpoint, named as in the domain table (`listIndices`, `createOrder`, ...). */
export type EndpointMethods = {
  readonly [Id in EndpointId]: (...args: MethodArgs<Id>) => Promise<ResponseOf<Id>>;
};

/**
 * An endpoint of the spec's table, one of our service's extensions, or one of the provider's
 * reads (`extensions.ts`).
 */
export type AnyEndpointId = EndpointId | ExtensionEndpointId | ProviderReadEndpointId;
