/** The app as main.ts mounts it (Pinia is the test's), with its router on a memory history. */
import { mount } from '@vue/test-utils';
import { createMemoryHistory } from 'vue-router';
import App from '../App.vue';
import { createAppRouter } from '../router';

export function mountApp(address = '/catalog') {
  // The history starts at the address: the router's first navigation (on install) goes there.
  const history = createMemoryHistory();
  history.replace(address);
  const router = createAppRouter(history);
  return mount(App, { attachTo: document.body, global: { plugins: [router] } });
}
