// Placeholder renderer entry (the real one lands on h/renderer): mounts an empty Vue app.
import { createApp, h } from 'vue';

createApp({ render: () => h('main', { id: 'eo-root' }, 'EO Field Desk') }).mount('#app');
