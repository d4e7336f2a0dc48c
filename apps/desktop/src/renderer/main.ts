/**
 * Renderer entry: pick the bridge (Electron preload or browser mode), then mount the app. With
 * no usable bridge (browser mode opened without its token) a plain page says what to do.
 */
// First: before any module builds a schema (schemas-without-eval.ts).
import './schemas-without-eval';
import { createPinia } from 'pinia';
import { createApp } from 'vue';
import App from './App.vue';
import { selectBridge } from './bridge';
import { createAppRouter } from './router';
import { provideBridge } from './stores/bridge-provider';
import { provideQuicklookUrl } from './ui/quicklook-source';
import { provideRasterExportUrl, provideRasterUrl } from './capabilities/rasters/raster-url';
import './styles.css';

const choice = selectBridge();
const root = document.getElementById('app');
if (!choice.ok) {
  if (root) {
    const box = document.createElement('div');
    box.className = 'state state--error boot-error';
    box.setAttribute('role', 'alert');
    const title = document.createElement('strong');
    title.textContent = 'Cannot reach the app';
    const text = document.createElement('p');
    text.textContent = choice.reason;
    box.append(title, text);
    root.append(box);
  }
} else {
  provideBridge(choice.bridge);
  provideQuicklookUrl(choice.quicklookUrl);
  provideRasterUrl(choice.rasterUrl);
  provideRasterExportUrl(choice.rasterExportUrl);
  createApp(App).use(createPinia()).use(createAppRouter()).mount('#app');
}
