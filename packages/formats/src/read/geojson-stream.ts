/**
 * A GeoJSON file read as a stream: the file's text is never whole in memory. A scanner walks the
 * text a chunk at a time and cuts the FeatureCollection's `features` list into one text per
 * feature, each parsed alone (`JSON.parse` of a bounded text) and counted as it comes, so the
 * feature and position limits stop the read where they are passed. What a naive reader would
 * choke on is refused as the scanner meets it: nesting deeper than `GEOJSON_MAX_DEPTH`, a text
 * (string) longer than `maxCellBytes` characters, a feature (or the other members together)
 * longer than `maxFeatureBytes` characters. A Feature or a bare geometry (one feature) is
 * parsed from its members, under the same bounds.
 */
import fs from 'node:fs';
import { StringDecoder } from 'node:string_decoder';
import type { ImportLimits } from '../limits';
import type { RawFeature } from '../types';
import { makeCounter } from './counter';
import { geoJsonFeature, inWgs84, readGeoJsonDocument } from './geojson';
import type { ReadResult } from './reader';

/** Nesting of arrays and objects (a GeometryCollection of polygons is 9 deep in a collection). */
export const GEOJSON_MAX_DEPTH = 64;

export async function readGeoJsonFile(
  file: string,
  limits: ImportLimits,
  /** Bytes read at a time (tests cut the text everywhere with a few). */
  chunkBytes = 64 * 1024,
): Promise<ReadResult> {
  const scanner = new GeoJsonScanner(limits);
  const input = fs.createReadStream(file, { highWaterMark: chunkBytes });
  const decoder = new StringDecoder('utf8');
  try {
    for await (const chunk of input) scanner.push(decoder.write(chunk as Buffer));
    scanner.push(decoder.end());
  } finally {
    input.destroy();
  }
  return scanner.end();
}

type CaptureKind = 'key' | 'member' | 'feature';

interface Capture {
  readonly kind: CaptureKind;
  /** Depth of the container the captured value sits in. */
  readonly base: number;
  /** How the value ends: its closing bracket, its closing quote, or the next delimiter. */
  readonly shape: 'container' | 'string' | 'primitive';
  readonly parts: string[];
  chars: number;
}

/** Where the scanner is when it is not inside a captured value. */
type Place =
  | 'start' // before the top-level object
  | 'key' // in the top-level object, before a member's name (or its end)
  | 'colon'
  | 'value'
  | 'comma' // after a member
  | 'feature' // in the features list, before a feature (or its end)
  | 'next-feature' // after a feature
  | 'end'; // after the top-level object

const isSpace = (c: number) => c === 32 || c === 10 || c === 13 || c === 9;
const isDelimiter = (c: number) => c === 44 || c === 93 || c === 125 || isSpace(c); // , ] }

class GeoJsonScanner {
  private place: Place = 'start';
  private depth = 0;
  private inString = false;
  private escaped = false;
  private stringChars = 0;
  private capture: Capture | null = null;
  /** Where the open capture starts in the chunk being scanned. */
  private from = 0;
  private key = '';
  private readonly members = new Map<string, string>();
  private memberChars = 0;
  private readonly features: RawFeature[] = [];
  private sawFeatures = false;
  private readonly count: ReturnType<typeof makeCounter>;

  constructor(private readonly limits: ImportLimits) {
    this.count = makeCounter(limits);
  }

  push(text: string): void {
    this.from = 0;
    for (let i = 0; i < text.length; i++) {
      if (this.inString) {
        i = this.inText(text, i);
        continue;
      }
      const c = text.charCodeAt(i);
      const capture = this.capture;
      if (capture) {
        if (capture.shape === 'primitive') {
          if (!isDelimiter(c)) continue;
          this.finish(text, i); // the delimiter is the container's: read below
        } else {
          if (c === 34) this.openText();
          else if (c === 123 || c === 91) this.open();
          else if ((c === 125 || c === 93) && --this.depth === capture.base)
            this.finish(text, i + 1);
          continue;
        }
      }
      this.structure(c, text, i);
    }
    const open = this.capture;
    if (open) {
      open.parts.push(text.slice(this.from));
      open.chars += text.length - this.from;
      this.checkSize(open);
    }
  }

  end(): ReadResult {
    if (this.place !== 'end' || this.inString)
      throw new Error('the file ends before its GeoJSON object does');
    const type = this.member('type');
    if (type === 'FeatureCollection' && this.sawFeatures)
      return inWgs84(this.features, this.member('crs'));
    const doc = Object.fromEntries([...this.members.keys()].map((k) => [k, this.member(k)]));
    return readGeoJsonDocument(doc, this.limits);
  }

  private member(name: string): unknown {
    const text = this.members.get(name);
    return text === undefined ? undefined : JSON.parse(text);
  }

  /** Inside a string at `i`: skips to its closing quote (bounded), returns the index reached. */
  private inText(text: string, i: number): number {
    let j = i;
    if (this.escaped) {
      this.escaped = false;
      j = i + 1;
    }
    for (; j < text.length; j++) {
      const c = text.charCodeAt(j);
      if (c === 92) {
        j++;
        if (j === text.length) this.escaped = true;
      } else if (c === 34) break;
    }
    this.stringChars += Math.min(j, text.length) - i;
    if (this.stringChars > this.limits.maxCellBytes)
      throw new Error(
        `${this.where()}: a text of more than ${this.limits.maxCellBytes} characters, the limit`,
      );
    if (j >= text.length) return text.length;
    this.inString = false;
    const capture = this.capture;
    if (capture?.shape === 'string' && this.depth === capture.base) this.finish(text, j + 1);
    return j;
  }

  private openText(): void {
    this.inString = true;
    this.escaped = false;
    this.stringChars = 0;
  }

  private open(): void {
    if (++this.depth > GEOJSON_MAX_DEPTH)
      throw new Error(
        `${this.where()}: nested deeper than ${GEOJSON_MAX_DEPTH} levels, the limit: not GeoJSON`,
      );
  }

  /** The top-level object and the features list, between captured values. */
  private structure(c: number, text: string, i: number): void {
    if (isSpace(c)) return;
    switch (this.place) {
      case 'start':
        if (c === 0xfeff) return;
        if (c !== 123) throw new Error('not a GeoJSON object');
        this.open();
        this.place = 'key';
        return;
      case 'key':
        if (c === 125) return this.close('end');
        if (c !== 34) throw this.unexpected(c);
        return this.begin('key', text, i);
      case 'colon':
        if (c !== 58) throw this.unexpected(c);
        this.place = 'value';
        return;
      case 'value':
        if (this.key === 'features' && c === 91) {
          this.open();
          this.sawFeatures = true;
          this.place = 'feature';
          return;
        }
        return this.begin('member', text, i);
      case 'comma':
        if (c === 125) return this.close('end');
        if (c !== 44) throw this.unexpected(c);
        this.place = 'key';
        return;
      case 'feature':
        if (c === 93) return this.close('comma');
        return this.begin('feature', text, i);
      case 'next-feature':
        if (c === 93) return this.close('comma');
        if (c !== 44) throw this.unexpected(c);
        this.place = 'feature';
        return;
      case 'end':
        throw new Error('more text after the GeoJSON object');
    }
  }

  private close(next: Place): void {
    this.depth--;
    this.place = next;
  }

  private unexpected(c: number): Error {
    return new Error(`${this.where()}: unexpected ${JSON.stringify(String.fromCharCode(c))}`);
  }

  private where(): string {
    return this.place === 'feature' || this.place === 'next-feature'
      ? `feature ${this.features.length + 1}`
      : 'the GeoJSON object';
  }

  /** Starts capturing the value that begins with `text[i]`. */
  private begin(kind: CaptureKind, text: string, i: number): void {
    const c = text.charCodeAt(i);
    const shape = c === 123 || c === 91 ? 'container' : c === 34 ? 'string' : 'primitive';
    this.capture = { kind, base: this.depth, shape, parts: [], chars: 0 };
    this.from = i;
    if (shape === 'container') this.open();
    else if (shape === 'string') this.openText();
  }

  /** Ends the open capture at `end` (exclusive) of `text`, and uses it. */
  private finish(text: string, end: number): void {
    const capture = this.capture!;
    capture.parts.push(text.slice(this.from, end));
    capture.chars += end - this.from;
    this.checkSize(capture);
    this.capture = null;
    const value = capture.parts.join('');
    if (capture.kind === 'key') {
      this.key = JSON.parse(value) as string;
      this.place = 'colon';
    } else if (capture.kind === 'member') {
      this.memberChars += value.length;
      this.members.set(this.key, value);
      this.place = 'comma';
    } else {
      const f = geoJsonFeature(JSON.parse(value));
      this.count(f.geometry);
      this.features.push(f);
      this.place = 'next-feature';
    }
  }

  private checkSize(capture: Capture): void {
    const max = this.limits.maxFeatureBytes;
    if (capture.kind === 'feature' && capture.chars > max)
      throw new Error(`${this.where()} is more than ${max} characters long, the limit`);
    if (capture.kind === 'member' && this.memberChars + capture.chars > max)
      throw new Error(
        `the members beside its features are more than ${max} characters long, the limit`,
      );
  }
}
