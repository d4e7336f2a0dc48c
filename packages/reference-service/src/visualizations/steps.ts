/** Worker step names of visualizations (imported by aois/ to resume waiting visualizations). */
export const VISUALIZATION_STEP = 'visualization.advance';
