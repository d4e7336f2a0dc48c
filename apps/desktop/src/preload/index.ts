/**
 * The preload (sandboxed, built as CommonJS): exposes `window.eo = { call, on }` for the
 * contract's methods and events, nothing else. See README.md beside this file for adding a method.
 */
import { contextBridge, ipcRenderer } from 'electron';
import { contractNamesFromArgv } from '../shared/names';
import { makePreloadApi } from './api';

// Throws (window.eo never appears) when main did not pass the contract's names.
const names = contractNamesFromArgv(process.argv);
contextBridge.exposeInMainWorld('eo', makePreloadApi(ipcRenderer, names));
