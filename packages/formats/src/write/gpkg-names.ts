/** A table or column name quoted for SQL (GeoPackage tables are named by the caller). */
export const quoteId = (name: string): string => `"${name.replace(/"/g, '""')}"`;
