/**
 * The preload (sandboxed, built as CommonJS): exposes `window.eo = { call, on }` for the
 * contract's methods and events, nothing else. See README.md beside this file for adding a method.
 */
import { contextBridge, ipcRenderer } from 'electron';
import { makePreloadApi } from './api';

contextBridge.exposeInMainWorld('eo', makePreloadApi(ipcRenderer));
