#!/usr/bin/env node
// Runs the TypeScript CLI through tsx, so it needs no build step (as apps/server's eo-server).
// tsx is registered in this process rather than started as a child: a signal sent to `eo`
// (Ctrl-C, kill -9 from a script) reaches the process that holds the database.
import { register } from 'tsx/esm/api';

register();
await import('../src/cli/main.ts');
