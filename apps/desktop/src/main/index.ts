/**
 * Electron main: the window (hardened), the backend in a utilityProcess, and the IPC relay
 * between them. The API key is decrypted here (safeStorage) and handed to the backend process;
 * the renderer never sees it. Cannot run on machines without the Electron binary: browser mode
 * (src/browser-mode) runs the same backend and renderer there.
 */
import {
  app,
  dialog,
  ipcMain,
  powerMonitor,
  protocol,
  safeStorage,
  session,
  utilityProcess,
  type BrowserWindow,
} from 'electron';
import { copyFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FromBackend, PortLike, ToBackend } from './backend-protocol';
import { createBackendHost, DataFolderInUseError } from './backend-host';
import { registerIpc, relayEvent } from './ipc';
import { withExportSaving, type SaveDeps } from './save-export';
import { withRasterExportSaving } from './save-raster-export';
import { isAllowedExternalUrl, linkHostsFor } from './links';
import { forwardResume } from './network-signals';
import { createLinkRelay, linkArgument, registerLinkScheme } from './record-links';
import { APP_PAGE_URL, APP_SCHEME_PRIVILEGES, serveAppFiles } from './app-protocol';
import { CHROMIUM_SWITCHES } from './chromium-switches';
import { QUICKLOOK_SCHEME_PRIVILEGES, serveQuicklooks } from './quicklook-protocol';
import { RASTER_SCHEME_PRIVILEGES, serveRasters } from './raster-protocol';
import { safeStorageSecrets } from './secrets';
import { applySessionSecurity, createMainWindow, hardenContents, isTrustedSender } from './window';

const here = path.dirname(fileURLToPath(import.meta.url));
const rendererDir = path.join(here, '../renderer');
const devUrl = !app.isPackaged ? process.env.ELECTRON_RENDERER_URL : undefined;
// The built page comes over the app's scheme (app-protocol.ts: its scripts' compiled code is
// kept between launches), the dev server's over http.
const pageUrl = devUrl ?? APP_PAGE_URL;

app.enableSandbox();
// Read by Chromium as it starts: before the app is ready.
for (const [name, value] of CHROMIUM_SWITCHES) app.commandLine.appendSwitch(name, value);
// Privileged schemes must be declared before the app is ready.
protocol.registerSchemesAsPrivileged([
  APP_SCHEME_PRIVILEGES,
  QUICKLOOK_SCHEME_PRIVILEGES,
  RASTER_SCHEME_PRIVILEGES,
]);
const dataDir = process.env.EO_DATA_DIR ?? app.getPath('userData');
// Electron's single-instance lock is per profile folder: the data folder's, so it and the
// backend's lock of the folder (backend/data-lock.ts, also held by browser mode and `eo outbox
// flush`) name the same thing. A second window of the app brings the first forward.
if (process.env.EO_DATA_DIR) app.setPath('userData', dataDir);
if (app.requestSingleInstanceLock()) start();
else {
  console.error(`EO Field Desk is already running on ${dataDir}: its window was brought forward.`);
  app.quit();
}

function start(): void {
  let mainWindow: BrowserWindow | null = null;
  let serviceUrl: string | null = null;

  app.on('web-contents-created', (_e, contents) => {
    hardenContents(contents, {
      isAllowed: (url) => isAllowedExternalUrl(url, linkHostsFor(serviceUrl)),
    });
  });

  // Record links (`eo-field-desk://…`): parsed here, the page gets the parsed link.
  const links = createLinkRelay({
    send: (link) => {
      if (mainWindow && !mainWindow.isDestroyed())
        relayEvent((...a) => mainWindow!.webContents.send(...a), 'link.opened', link);
    },
    refuse: (reason) => {
      const box = {
        type: 'warning' as const,
        message: 'This link cannot be opened',
        detail: reason,
      };
      void (mainWindow ? dialog.showMessageBox(mainWindow, box) : dialog.showMessageBox(box));
    },
  });
  registerLinkScheme(app, links, process);

  app.on('second-instance', (_event, argv: string[]) => {
    if (mainWindow?.isMinimized()) mainWindow.restore();
    mainWindow?.focus();
    const link = linkArgument(argv);
    if (link) links.open(link);
  });
  app.on('window-all-closed', () => app.quit());

  void app.whenReady().then(async () => {
    applySessionSecurity(session.defaultSession, pageUrl);
    const secrets = safeStorageSecrets(dataDir, safeStorage);
    const child = utilityProcess.fork(path.join(here, 'backend-process.cjs'), [], {
      serviceName: 'EO Field Desk backend',
      stdio: 'inherit',
    });
    const port: PortLike<FromBackend, ToBackend> = {
      postMessage: (m) => child.postMessage(m),
      onMessage: (listener) => {
        const l = (m: unknown) => listener(m as FromBackend);
        child.on('message', l);
        return () => child.off('message', l);
      },
    };
    const host = createBackendHost(port, secrets);
    serveAppFiles(session.defaultSession.protocol, rendererDir);
    serveQuicklooks(session.defaultSession.protocol, host);
    serveRasters(session.defaultSession.protocol, host);
    const showSaveDialog: SaveDeps['showSaveDialog'] = (o) =>
      mainWindow ? dialog.showSaveDialog(mainWindow, o) : dialog.showSaveDialog(o);
    const defaultDir = () => app.getPath('downloads');
    registerIpc(ipcMain, {
      // An export is saved where the user says (save-export.ts, save-raster-export.ts).
      call: withRasterExportSaving(
        withExportSaving(
          async (method, input) => {
            const result = await host.call(method, input);
            // Keep the link allowlist in step with the configured service.
            if (result.ok && (method === 'settings.get' || method === 'settings.update')) {
              serviceUrl = (result.value as { serviceUrl: string | null }).serviceUrl;
            }
            return result;
          },
          { showSaveDialog, writeFile: (file, data) => writeFile(file, data), defaultDir },
        ),
        {
          showSaveDialog,
          defaultDir,
          exportFile: (exportId) => host.rasterExportFile(exportId),
          copyFile: (from, to) => copyFile(from, to),
        },
      ),
      isTrustedSender: (event) =>
        isTrustedSender(event, { webContentsId: mainWindow?.webContents.id ?? null, pageUrl }),
    });
    host.onEvent((event, payload) => {
      if (mainWindow && !mainWindow.isDestroyed()) {
        relayEvent((...a) => mainWindow!.webContents.send(...a), event, payload);
      }
    });

    let quitting = false;
    app.on('before-quit', (e) => {
      if (quitting) return;
      quitting = true;
      e.preventDefault();
      void host
        .shutdown()
        .catch(() => undefined)
        .finally(() => app.exit(0));
    });

    try {
      await host.init({ dataDir, version: app.getVersion() });
    } catch (e) {
      if (e instanceof DataFolderInUseError)
        dialog.showErrorBox('EO Field Desk is already running on this data folder', e.message);
      else
        dialog.showErrorBox(
          'EO Field Desk could not start',
          `The local database or the built-in service failed to start:\n${e instanceof Error ? e.message : String(e)}\n\nData folder: ${dataDir}`,
        );
      app.exit(1);
      return;
    }
    // Woken from sleep: the backend checks the service soon instead of at its timer.
    forwardResume(powerMonitor, (method, input) => host.call(method, input));
    mainWindow = createMainWindow({
      preload: path.join(here, '../preload/index.cjs'),
      url: pageUrl,
    });
    mainWindow.on('closed', () => (mainWindow = null));
    mainWindow.webContents.on('did-start-loading', () => links.unready());
    mainWindow.webContents.on('did-finish-load', () => links.ready());
  });
}
