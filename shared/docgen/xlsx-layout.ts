/**
 * The `exceljs-xlsx` engine's layout (xlsx.layout; docs/document-generation.md): one worksheet per input, named after
 * it. A
 * list of structured items is a table (a header row of the fields, one row per item); anything else is a column of
 * labels and a column of values, one row per layout line.
 */
import ExcelJS from 'exceljs';
import type { PrintRequest } from '../runtime/index.js';
import { humanizeName, layoutLines } from './plain-data.js';

/** Most columns a table gets (fields past it are left out). */
const MAX_TABLE_COLUMNS = 200;
/** Longest worksheet name Excel accepts. */
const MAX_SHEET_NAME = 31;

/** A worksheet name Excel accepts, unique in the workbook. */
function sheetName(name: string, taken: Set<string>): string {
  const base =
    humanizeName(name)
      .replace(/[[\]:*?/\\]/g, ' ')
      .slice(0, MAX_SHEET_NAME) || 'Sheet';
  let candidate = base;
  for (let index = 2; taken.has(candidate.toLowerCase()); index += 1)
    candidate = `${base.slice(0, MAX_SHEET_NAME - String(index).length - 1)} ${index}`;
  taken.add(candidate.toLowerCase());
  return candidate;
}

/** A cell value: scalars as they are (strings never become formulas), a text content its text, the rest JSON. */
function cellValue(value: unknown): string | number | boolean | null {
  if (value === null || value === undefined) return null;
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'string') return value;
  const record = value as Record<string, unknown>;
  if (!Array.isArray(value) && Object.keys(record).length === 1 && typeof record['text'] === 'string')
    return record['text'];
  return JSON.stringify(value);
}

function isTable(value: unknown): value is Record<string, unknown>[] {
  return (
    Array.isArray(value) &&
    value.length > 0 &&
    value.every((item) => item !== null && typeof item === 'object' && !Array.isArray(item))
  );
}

function addTable(sheet: ExcelJS.Worksheet, items: Record<string, unknown>[]): void {
  const columns: string[] = [];
  for (const item of items)
    for (const key of Object.keys(item))
      if (!columns.includes(key) && columns.length < MAX_TABLE_COLUMNS) columns.push(key);
  const header = sheet.addRow(columns.map(humanizeName));
  header.font = { bold: true };
  for (const item of items) sheet.addRow(columns.map((column) => cellValue(item[column])));
}

/**
 * Print the layout.
 * @param request - data
 * @returns the .xlsx bytes
 */
export async function printXlsxLayout(request: PrintRequest): Promise<Uint8Array> {
  const workbook = new ExcelJS.Workbook();
  workbook.title = request.title;
  const taken = new Set<string>();
  for (const [name, value] of Object.entries(request.data)) {
    const sheet = workbook.addWorksheet(sheetName(name, taken));
    if (isTable(value)) addTable(sheet, value);
    else
      for (const line of layoutLines(value))
        sheet.addRow([`${'  '.repeat(line.depth)}${line.label ?? ''}`, line.value]);
  }
  return new Uint8Array(await workbook.xlsx.writeBuffer());
}
