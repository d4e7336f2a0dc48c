/** What every resource module gets: the database, the config, the clock, the worker and the render pool. */
import type Database from 'better-sqlite3';
import type { ServerConfig } from './config';
import type { Db } from './db/client';
import type { SceneCogs } from './imagery/cog';
import type { QuicklookStore } from './imagery/store';
import type { UrlSigner } from './imagery/signing';
import type { RenderPool } from './render/pool';
import type { Worker } from './worker/worker';

export interface AppContext {
  readonly sqlite: Database.Database;
  readonly db: Db;
  readonly config: ServerConfig;
  readonly worker: Worker;
  /** Signed asset URLs and the rendered pictures (and scene COGs) behind them. */
  readonly imagery: {
    readonly signer: UrlSigner;
    readonly store: QuicklookStore;
    readonly cogs: SceneCogs;
  };
  /** Worker threads for heavy steps (renders), with a fair share per organisation. */
  readonly render: RenderPool;
  /** Now, in epoch microseconds (the unit of every stored instant). */
  nowUs(): number;
}
